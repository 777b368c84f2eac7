// libFuzzer target: bytes -> a TMX (XML) map through
// sweep::io::load_tiled_map_from_memory, with the invariants of
// check_geometry.hpp on every map that loads. Inputs that the loader would
// not sniff as XML are left to fuzz_tiled_tmj.
#include "fuzz_map.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (sweep::fuzz::first_significant(text) != '<') {
        return 0;
    }
    sweep::fuzz::fuzz_map(text, "fuzz.tmx");
    return 0;
}
