#include "app.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>
#include <imgui_impl_sdlrenderer.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <utility>

#include "samples/registry.hpp"
#include "screenshot.hpp"

namespace sweep::testbed {
namespace {

constexpr real k_slow_motion = real(0.25); ///< time scale of slow motion
constexpr int k_max_steps_per_frame = 8;   ///< a slow frame never snowballs into more
constexpr float k_panel_width = 300;       ///< pixels; the scene is framed right of it

/// The interactive state the panel edits.
struct Controls {
    int sample = 0; ///< index into all_samples()
    int hz = 60;
    bool paused = false;
    bool slow_motion = false;
    bool step_once = false;
    bool restart = false;
    DrawOptions draw;
};

/// SDL, the window, the renderer and ImGui, released in reverse order.
class Platform {
  public:
    bool open(const AppOptions& options, bool headless) {
        if (SDL_Init(SDL_INIT_VIDEO) != 0) {
            std::cerr << "sweep-testbed: SDL_Init: " << SDL_GetError() << '\n';
            return false;
        }
        sdl_ = true;
        const Uint32 flags = headless ? SDL_WINDOW_HIDDEN : SDL_WINDOW_RESIZABLE;
        window = SDL_CreateWindow("sweep testbed", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                  options.width, options.height, flags);
        if (window == nullptr) {
            std::cerr << "sweep-testbed: SDL_CreateWindow: " << SDL_GetError() << '\n';
            return false;
        }
        // Headless runs use the software renderer so that the pixels read
        // back are the same on every machine.
        if (!headless) {
            renderer = SDL_CreateRenderer(window, -1,
                                          SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
        }
        if (renderer == nullptr) {
            renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE);
        }
        if (renderer == nullptr) {
            std::cerr << "sweep-testbed: SDL_CreateRenderer: " << SDL_GetError() << '\n';
            return false;
        }
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND);
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr;
        ImGui::StyleColorsLight();
        imgui_ = ImGui_ImplSDL2_InitForSDLRenderer(window) && ImGui_ImplSDLRenderer_Init(renderer);
        return imgui_;
    }

    ~Platform() {
        if (imgui_) {
            ImGui_ImplSDLRenderer_Shutdown();
            ImGui_ImplSDL2_Shutdown();
        }
        if (ImGui::GetCurrentContext() != nullptr) {
            ImGui::DestroyContext();
        }
        if (renderer != nullptr) {
            SDL_DestroyRenderer(renderer);
        }
        if (window != nullptr) {
            SDL_DestroyWindow(window);
        }
        if (sdl_) {
            SDL_Quit();
        }
    }

    SDL_Window* window = nullptr;
    SDL_Renderer* renderer = nullptr;

  private:
    bool sdl_ = false;
    bool imgui_ = false;
};

Input keyboard_input() {
    const Uint8* keys = SDL_GetKeyboardState(nullptr);
    Input in;
    in.left = keys[SDL_SCANCODE_LEFT] || keys[SDL_SCANCODE_A];
    in.right = keys[SDL_SCANCODE_RIGHT] || keys[SDL_SCANCODE_D];
    in.jump = keys[SDL_SCANCODE_SPACE] || keys[SDL_SCANCODE_UP] || keys[SDL_SCANCODE_W];
    return in;
}

/// The running sample, its camera and the panel around it.
class Testbed {
  public:
    Testbed(const AppOptions& options, int sample) : options_(options) { controls.sample = sample; }

    void start(int width, int height) {
        const SampleInfo& info = all_samples()[static_cast<std::size_t>(controls.sample)];
        sample = info.make(SampleContext{options_.map});
        camera.width = width;
        camera.height = height;
        camera.fit(sample->view(), static_cast<int>(k_panel_width + 20));
        accumulator_ = 0;
    }

    /// Handles one SDL event the panel did not take; false on quit.
    bool handle(const SDL_Event& e, const ImGuiIO& io) {
        switch (e.type) {
        case SDL_QUIT:
            return false;
        case SDL_KEYDOWN:
            if (!io.WantCaptureKeyboard) {
                return key(e.key.keysym.sym);
            }
            break;
        case SDL_MOUSEBUTTONDOWN:
            if (!io.WantCaptureMouse) {
                const SDL_FPoint p{float(e.button.x), float(e.button.y)};
                if (e.button.button == SDL_BUTTON_LEFT) {
                    sample->mouse_down(camera.to_world(p));
                } else {
                    panning_ = true;
                }
            }
            break;
        case SDL_MOUSEBUTTONUP:
            if (e.button.button == SDL_BUTTON_LEFT) {
                sample->mouse_up();
            } else {
                panning_ = false;
            }
            break;
        case SDL_MOUSEMOTION:
            if (panning_) {
                camera.center = camera.center + (1 / camera.pixels_per_unit) *
                                                    Vec2{real(-e.motion.xrel), real(e.motion.yrel)};
            }
            sample->mouse_move(camera.to_world({float(e.motion.x), float(e.motion.y)}));
            break;
        case SDL_MOUSEWHEEL:
            if (!io.WantCaptureMouse) {
                wheel(real(e.wheel.y));
            }
            break;
        default:
            break;
        }
        return true;
    }

    /// Steps by the wall time that passed (scaled in slow motion), at the
    /// chosen rate, at most k_max_steps_per_frame times.
    void advance(double seconds, const Input& input) {
        const real dt = real(1) / real(controls.hz);
        if (controls.paused) {
            accumulator_ = 0;
            if (std::exchange(controls.step_once, false)) {
                sample->step(dt, input);
            }
            return;
        }
        accumulator_ += seconds * (controls.slow_motion ? k_slow_motion : 1);
        for (int i = 0; i < k_max_steps_per_frame && accumulator_ >= dt; ++i) {
            sample->step(dt, input);
            accumulator_ -= dt;
        }
        accumulator_ = std::min(accumulator_, double(dt));
    }

    void render(SDL_Renderer* renderer) {
        if (const auto target = sample->follow()) {
            camera.center = *target - Vec2{(k_panel_width + 20) / 2 / camera.pixels_per_unit, 0};
        }
        SDL_SetRenderDrawColor(renderer, k_background.r, k_background.g, k_background.b, 255);
        SDL_RenderClear(renderer);
        sample->draw(Draw(renderer, camera), controls.draw);
    }

    void panel();

    std::unique_ptr<Sample> sample;
    Camera camera;
    Controls controls;

  private:
    bool key(SDL_Keycode key) {
        switch (key) {
        case SDLK_ESCAPE:
            return false;
        case SDLK_p:
            controls.paused = !controls.paused;
            break;
        case SDLK_o:
            controls.paused = true;
            controls.step_once = true;
            break;
        case SDLK_r:
            controls.restart = true;
            break;
        case SDLK_m:
            controls.slow_motion = !controls.slow_motion;
            break;
        default:
            break;
        }
        return true;
    }

    void wheel(real clicks) {
        if ((SDL_GetModState() & KMOD_SHIFT) != 0 && sample->wants_wheel()) {
            sample->wheel(clicks);
            return;
        }
        int x = 0;
        int y = 0;
        SDL_GetMouseState(&x, &y);
        camera.zoom_at({float(x), float(y)}, std::pow(real(1.15), clicks));
    }

    const AppOptions& options_;
    double accumulator_ = 0;
    bool panning_ = false;
};

void Testbed::panel() {
    ImGui::SetNextWindowPos({10, 10}, ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSizeConstraints({k_panel_width, 0}, {k_panel_width, 10000});
    ImGui::SetNextWindowBgAlpha(0.85f);
    ImGui::Begin("sweep testbed", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    const auto samples = all_samples();
    const SampleInfo& current = samples[static_cast<std::size_t>(controls.sample)];
    if (ImGui::BeginCombo("sample", std::string(current.name).c_str())) {
        for (int i = 0; i < static_cast<int>(samples.size()); ++i) {
            const std::string name(samples[static_cast<std::size_t>(i)].name);
            if (ImGui::Selectable(name.c_str(), i == controls.sample) && i != controls.sample) {
                controls.sample = i;
                controls.restart = true;
            }
        }
        ImGui::EndCombo();
    }
    ImGui::TextWrapped("%s", std::string(current.summary).c_str());
    ImGui::Checkbox("pause (P)", &controls.paused);
    ImGui::SameLine();
    if (ImGui::Button("step (O)")) {
        controls.paused = true;
        controls.step_once = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("restart (R)")) {
        controls.restart = true;
    }
    ImGui::Checkbox("slow motion (M)", &controls.slow_motion);
    ImGui::SliderInt("Hz", &controls.hz, 10, 240);
    if (ImGui::CollapsingHeader("draw", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::Checkbox("AABBs", &controls.draw.aabbs);
        ImGui::SameLine();
        ImGui::Checkbox("broadphase tree", &controls.draw.broadphase);
        ImGui::Checkbox("contacts", &controls.draw.contacts);
        ImGui::SameLine();
        ImGui::Checkbox("hit events", &controls.draw.events);
        ImGui::Checkbox("TOI events", &controls.draw.toi_events);
        ImGui::SameLine();
        ImGui::Checkbox("trajectories", &controls.draw.trajectories);
    }
    const Figures f = sample->figures();
    if (ImGui::CollapsingHeader("figures", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::Text("bodies %d (%d awake)   contacts %d (%d points)", f.bodies, f.awake_bodies,
                    f.contacts, f.contact_points);
        ImGui::Text("step %.3f ms in total", f.step_ms);
        ImGui::Text("  broadphase %.3f  narrowphase %.3f", f.broadphase_ms, f.narrowphase_ms);
        ImGui::Text("  TOI %.3f  solver %.3f", f.toi_ms, f.solver_ms);
        ImGui::Text("TOI events %d static, %d between bodies", f.toi_events, f.toi_pair_events);
        ImGui::Text("cap hits %d   max penetration %.4f", f.cap_hits, double(f.max_penetration));
    }
    sample->draw_ui();
    ImDrawList* overlay = ImGui::GetBackgroundDrawList();
    for (const Label& label : sample->labels()) {
        const SDL_FPoint p = camera.to_screen(label.at);
        overlay->AddText({p.x, p.y}, IM_COL32(30, 30, 30, 255), label.text.c_str());
    }
    if (sample->disturbed()) {
        ImGui::TextDisabled("invariant off: the mouse moved a body");
    }
    if (const auto& failure = sample->failure()) {
        ImGui::TextColored({0.8f, 0.1f, 0.1f, 1}, "invariant failed: %s", failure->c_str());
    }
    ImGui::TextDisabled("drag: left   pan: right   zoom: wheel");
    ImGui::End();
}

} // namespace

int run_app(const AppOptions& options) {
    const auto samples = all_samples();
    const SampleInfo* info = find_sample(options.sample);
    if (info == nullptr) {
        std::cerr << "sweep-testbed: no sample \"" << options.sample << "\" (see --list)\n";
        return 2;
    }
    const bool headless = options.frames.has_value();
    Platform platform;
    if (!platform.open(options, headless)) {
        return 1;
    }
    Testbed testbed(options, static_cast<int>(info - samples.data()));
    int width = 0;
    int height = 0;
    SDL_GetRendererOutputSize(platform.renderer, &width, &height);
    testbed.start(width, height);
    Uint64 last = SDL_GetPerformanceCounter();
    for (int frame = 0; !headless || frame < *options.frames; ++frame) {
        SDL_Event e;
        bool running = true;
        while (SDL_PollEvent(&e)) {
            ImGui_ImplSDL2_ProcessEvent(&e);
            running = running && testbed.handle(e, ImGui::GetIO());
        }
        if (!running) {
            break;
        }
        SDL_GetRendererOutputSize(platform.renderer, &testbed.camera.width, &testbed.camera.height);
        if (std::exchange(testbed.controls.restart, false)) {
            testbed.start(testbed.camera.width, testbed.camera.height);
        }
        const Uint64 now = SDL_GetPerformanceCounter();
        const double seconds = double(now - last) / double(SDL_GetPerformanceFrequency());
        last = now;
        if (headless) {
            testbed.sample->step(real(1) / real(testbed.controls.hz),
                                 testbed.sample->scripted_input(frame));
        } else {
            testbed.advance(seconds, keyboard_input());
        }
        ImGui_ImplSDLRenderer_NewFrame();
        ImGui_ImplSDL2_NewFrame();
        ImGui::NewFrame();
        testbed.panel();
        ImGui::Render();
        testbed.render(platform.renderer);
        ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData());
        if (headless && options.screenshot && frame + 1 == *options.frames) {
            if (const Result<void> saved = save_screenshot(platform.renderer, *options.screenshot);
                !saved) {
                std::cerr << "sweep-testbed: " << saved.error().message << '\n';
                return 1;
            }
        }
        SDL_RenderPresent(platform.renderer);
    }
    if (const auto& failure = testbed.sample->failure()) {
        std::cerr << "sweep-testbed: sample " << options.sample
                  << ": invariant failed: " << *failure << '\n';
        return 1;
    }
    return 0;
}

} // namespace sweep::testbed
