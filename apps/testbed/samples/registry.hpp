// Every sample by name, in the order the menu and --list show them.
#pragma once

#include <filesystem>
#include <memory>
#include <span>
#include <string_view>

#include "sample.hpp"

namespace sweep::testbed {

/// What a sample may take from the command line.
struct SampleContext {
    std::filesystem::path map; ///< the platformer's Tiled map
};

using SampleFactory = std::unique_ptr<Sample> (*)(const SampleContext&);

struct SampleInfo {
    std::string_view name;    ///< for --sample and --list
    std::string_view summary; ///< one line for the panel
    SampleFactory make;
};

std::span<const SampleInfo> all_samples();
/// The sample called `name`, or null.
const SampleInfo* find_sample(std::string_view name);

std::unique_ptr<Sample> make_crack(const SampleContext&);
std::unique_ptr<Sample> make_bullet(const SampleContext&);
std::unique_ptr<Sample> make_corners(const SampleContext&);
std::unique_ptr<Sample> make_mover(const SampleContext&);
std::unique_ptr<Sample> make_one_way(const SampleContext&);
std::unique_ptr<Sample> make_restitution(const SampleContext&);
std::unique_ptr<Sample> make_friction(const SampleContext&);
std::unique_ptr<Sample> make_stack(const SampleContext&);
std::unique_ptr<Sample> make_pyramid(const SampleContext&);
std::unique_ptr<Sample> make_spinning_bars(const SampleContext&);
std::unique_ptr<Sample> make_particles(const SampleContext&);
std::unique_ptr<Sample> make_crossing(const SampleContext&);
std::unique_ptr<Sample> make_drive(const SampleContext&);
std::unique_ptr<Sample> make_platformer(const SampleContext&);
std::unique_ptr<Sample> make_lab(const SampleContext&);

} // namespace sweep::testbed
