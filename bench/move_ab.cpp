// sweep-move-ab A.so B.so [character] [chunks] [frames]: the in-process
// A/B of World::move (scripts/move_ab builds the modules). Opens the two
// modules (move_ab_module.cpp, each linked with one build's library), builds
// the Move benchmark's scene in each, and times them in chunks of `frames`
// frames of 1000 moves, alternating which goes first, `chunks` times. Prints
// each side's moves per second over all chunks, B's time over A's, and
// whether the characters ended where they did in both (a change that should
// not move anything must keep that "equal"). Two copies of one build read
// within 1 % of each other on this machine; separate runs of the benchmark
// vary by 20 %.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

struct Module {
    void (*build)(int) = nullptr;
    double (*frames)(int) = nullptr;
    std::uint64_t (*hash)() = nullptr;
};

// (`other`: the handle of the module opened first; a path opened twice
// gives the same module, one library, not two.)
bool open_module(const char* path, Module& m, void*& handle, const void* other) {
    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        std::fprintf(stderr, "sweep-move-ab: %s\n", dlerror());
        return false;
    }
    if (handle == other) {
        std::fprintf(stderr, "sweep-move-ab: %s is module A again (for an A/A run, a copy)\n",
                     path);
        return false;
    }
    m.build = reinterpret_cast<void (*)(int)>(dlsym(handle, "sweep_move_ab_build"));
    m.frames = reinterpret_cast<double (*)(int)>(dlsym(handle, "sweep_move_ab_frames"));
    m.hash = reinterpret_cast<std::uint64_t (*)()>(dlsym(handle, "sweep_move_ab_hash"));
    if (!m.build || !m.frames || !m.hash) {
        std::fprintf(stderr, "sweep-move-ab: %s is not a move_ab module\n", path);
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr,
                     "usage: sweep-move-ab A.so B.so [character 0|1|2] [chunks] [frames]\n");
        return 2;
    }
    Module a;
    Module b;
    void* handle_a = nullptr;
    void* handle_b = nullptr;
    if (!open_module(argv[1], a, handle_a, nullptr) ||
        !open_module(argv[2], b, handle_b, handle_a)) {
        return 1;
    }
    const int character = argc > 3 ? std::atoi(argv[3]) : 0;
    const int chunks = argc > 4 ? std::atoi(argv[4]) : 60;
    const int frames = argc > 5 ? std::atoi(argv[5]) : 20;
    if (character < 0 || character > 2 || chunks < 1 || frames < 1) {
        std::fprintf(stderr, "sweep-move-ab: character 0, 1 or 2; chunks and frames >= 1\n");
        return 2;
    }
    a.build(character);
    b.build(character);
    a.frames(5); // (warm: the neighbourhoods found, the caches filled)
    b.frames(5);
    double time_a = 0;
    double time_b = 0;
    for (int k = 0; k < chunks; ++k) {
        if (k % 2 == 0) {
            time_a += a.frames(frames);
            time_b += b.frames(frames);
        } else {
            time_b += b.frames(frames);
            time_a += a.frames(frames);
        }
    }
    const double moves = 1000.0 * chunks * frames;
    std::printf("A %.3f M moves/s  B %.3f M moves/s  B/A time %.4f  end states %s\n",
                moves / time_a / 1e6, moves / time_b / 1e6, time_b / time_a,
                a.hash() == b.hash() ? "equal" : "differ");
    return 0;
}
