// Saving what the renderer drew as a PNG (cairo's writer, which sweep's
// render library already depends on).
#pragma once

#include <SDL.h>

#include <filesystem>

#include "sweep/result.hpp"

namespace sweep::testbed {

/// Reads the renderer's current target (call before SDL_RenderPresent) and
/// writes it to `out` as an RGB PNG. Errors: SDL cannot read the pixels or
/// cairo cannot write the file (io_error, with the reason).
Result<void> save_screenshot(SDL_Renderer* renderer, const std::filesystem::path& out);

} // namespace sweep::testbed
