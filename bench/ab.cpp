// sweep-ab A.so B.so [scene] [chunks] [frames]: the in-process A/B of two
// builds (scripts/ab builds the modules). Opens the two modules
// (ab_module.cpp, each linked with one build's library), builds the scene
// in each (0, 1, 2, 5: the Move benchmark's characters, boxes, discs,
// capsules or octagons, a frame 1000 moves; 3: the pyramid of
// World/pyramid_5050, 4: World/fall_1k, a frame a step), and times them in
// chunks of `frames` frames, alternating which goes first, `chunks` times. Prints each side's
// time a frame over all chunks, B's time over A's, and whether the bodies
// ended where they did in both (a change that should not move anything
// must keep that "equal"). Two copies of one build read within 1 % of each
// other on this machine; separate runs of a benchmark vary by 20 % and more.
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
        std::fprintf(stderr, "sweep-ab: %s\n", dlerror());
        return false;
    }
    if (handle == other) {
        std::fprintf(stderr, "sweep-ab: %s is module A again (for an A/A run, a copy)\n", path);
        return false;
    }
    m.build = reinterpret_cast<void (*)(int)>(dlsym(handle, "sweep_ab_build"));
    m.frames = reinterpret_cast<double (*)(int)>(dlsym(handle, "sweep_ab_frames"));
    m.hash = reinterpret_cast<std::uint64_t (*)()>(dlsym(handle, "sweep_ab_hash"));
    if (!m.build || !m.frames || !m.hash) {
        std::fprintf(stderr, "sweep-ab: %s is not an A/B module\n", path);
        return false;
    }
    return true;
}

constexpr int k_last_scene = 6;

bool is_step_scene(int scene) { return scene == 3 || scene == 4 || scene == 6; }

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: sweep-ab A.so B.so [scene 0..5] [chunks] [frames]\n");
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
    const int scene = argc > 3 ? std::atoi(argv[3]) : 0;
    const bool steps = is_step_scene(scene);
    const int chunks = argc > 4 ? std::atoi(argv[4]) : (steps ? 20 : 60);
    const int frames = argc > 5 ? std::atoi(argv[5]) : (steps ? 10 : 20);
    if (scene < 0 || scene > k_last_scene || chunks < 1 || frames < 1) {
        std::fprintf(stderr, "sweep-ab: scene 0 to %d; chunks and frames >= 1\n", k_last_scene);
        return 2;
    }
    a.build(scene);
    b.build(scene);
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
    const double n = static_cast<double>(chunks) * frames;
    std::printf("A %.4f ms a %s  B %.4f ms a %s  B/A time %.4f  end states %s\n", time_a / n * 1e3,
                steps ? "step" : "frame of 1000 moves", time_b / n * 1e3,
                steps ? "step" : "frame of 1000 moves", time_b / time_a,
                a.hash() == b.hash() ? "equal" : "differ");
    return 0;
}
