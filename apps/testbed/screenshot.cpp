#include "screenshot.hpp"

#include <cairo.h>

#include <memory>
#include <string>
#include <vector>

namespace sweep::testbed {

Result<void> save_screenshot(SDL_Renderer* renderer, const std::filesystem::path& out) {
    int width = 0;
    int height = 0;
    if (SDL_GetRendererOutputSize(renderer, &width, &height) != 0) {
        return Error{ErrorCode::io_error, std::string("screenshot: ") + SDL_GetError()};
    }
    // ARGB8888 in native byte order is cairo's RGB24 layout, so the pixels
    // go to cairo as they are.
    const int stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, width);
    std::vector<unsigned char> pixels(static_cast<std::size_t>(stride) *
                                      static_cast<std::size_t>(height));
    if (SDL_RenderReadPixels(renderer, nullptr, SDL_PIXELFORMAT_ARGB8888, pixels.data(), stride) !=
        0) {
        return Error{ErrorCode::io_error, std::string("screenshot: ") + SDL_GetError()};
    }
    const std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
        cairo_image_surface_create_for_data(pixels.data(), CAIRO_FORMAT_RGB24, width, height,
                                            stride),
        cairo_surface_destroy);
    const cairo_status_t status = cairo_surface_write_to_png(surface.get(), out.c_str());
    if (status != CAIRO_STATUS_SUCCESS) {
        return Error{ErrorCode::io_error,
                     out.string() + ": cannot write PNG: " + cairo_status_to_string(status)};
    }
    return {};
}

} // namespace sweep::testbed
