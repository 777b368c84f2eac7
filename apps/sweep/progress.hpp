// A progress bar on stderr for runs long enough to wonder about: shown only
// on a terminal and only once a run has taken a second, so that pipes, logs
// and tests never see it.
#pragma once

#include <chrono>
#include <string>

namespace sweep::app {

/// Draws `label [#####.....]  45%  270/600 steps` on one stderr line,
/// redrawn at most ten times a second, and erases it when destroyed.
class ProgressBar {
  public:
    /// A bar named `label` counting `unit`s (steps, frames); `enabled` false
    /// makes every call do nothing (the program passes whether stderr is a
    /// terminal).
    ProgressBar(std::string label, std::string unit, bool enabled);
    ~ProgressBar();
    ProgressBar(const ProgressBar&) = delete;
    ProgressBar& operator=(const ProgressBar&) = delete;

    /// Reports `done` of `total` units of work; draws once the bar has
    /// existed for more than a second.
    void update(int done, int total);

    /// Whether stderr is a terminal (isatty).
    static bool stderr_is_terminal();

  private:
    std::string label_;
    std::string unit_;
    bool enabled_;
    bool shown_ = false;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_draw_;
};

} // namespace sweep::app
