#include "progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <utility>

namespace sweep::app {
namespace {

using Clock = std::chrono::steady_clock;

/// Runs shorter than this show no bar.
constexpr auto k_quiet_time = std::chrono::seconds(1);
/// Least time between two redraws.
constexpr auto k_redraw_time = std::chrono::milliseconds(100);
constexpr int k_bar_width = 30;

} // namespace

ProgressBar::ProgressBar(std::string label, std::string unit, bool enabled)
    : label_(std::move(label)), unit_(std::move(unit)), enabled_(enabled), start_(Clock::now()),
      last_draw_(start_) {}

ProgressBar::~ProgressBar() {
    if (shown_) {
        std::fputs("\r\033[K", stderr); // erase the line: the summary follows on stdout
        std::fflush(stderr);
    }
}

bool ProgressBar::stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

void ProgressBar::update(int done, int total) {
    if (!enabled_ || total <= 0) {
        return;
    }
    const auto now = Clock::now();
    if (now - start_ < k_quiet_time || (shown_ && now - last_draw_ < k_redraw_time)) {
        return;
    }
    last_draw_ = now;
    shown_ = true;
    const double fraction = std::clamp(double(done) / total, 0.0, 1.0);
    const int filled = int(fraction * k_bar_width);
    std::fprintf(stderr, "\r%s [%.*s%.*s] %3d%%  %d/%d %s", label_.c_str(), filled,
                 "##############################", k_bar_width - filled,
                 "..............................", int(fraction * 100), done, total, unit_.c_str());
    std::fflush(stderr);
}

} // namespace sweep::app
