// A libFuzzer input read as geometry: numbers, points, poses and shapes, for
// the kernel and world targets (fuzz_geometry.cpp, fuzz_world.cpp).
//
// Each number begins with a byte that says how to read it: most often as a
// moderate value (the sizes and places of real levels, on fine and coarse
// grids, so that the fuzzer meets exact touches, flush faces and repeated
// points), sometimes as a special value or as any float's bits (NaN,
// infinities, denormals, values whose squares overflow). Shapes come from the
// library's factories, which validate them; an input they reject is read on.
// An exhausted input reads as zeros.
#pragma once

#include <sweep/constants.hpp>
#include <sweep/shapes.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "require.hpp"

namespace sweep::fuzz {

/// sweep::is_finite (Vec2, Transform) for a number too.
inline bool is_finite(real x) { return std::isfinite(x); }
using sweep::is_finite;

class FuzzInput {
  public:
    FuzzInput(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

    bool exhausted() const { return at_ >= size_; }

    std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }

    std::int16_t int16() {
        const auto lo = static_cast<std::uint16_t>(byte());
        const auto hi = static_cast<std::uint16_t>(byte());
        return static_cast<std::int16_t>(static_cast<std::uint16_t>(lo | (hi << 8)));
    }

    /// Any value `real` holds, moderate ones most often.
    real number() {
        switch (byte() % 10) {
        case 0:
            return raw();
        case 1:
            return special();
        case 2:
            return real(static_cast<std::int8_t>(byte())); // whole units
        case 3:
            return real(int16()) / 4096; // fine, about +-8
        case 4:
            return real(int16()) * 4; // coarse, about +-1e5
        case 5:
            return real(static_cast<std::int8_t>(byte())) / 16; // tile sixteenths
        default:
            return real(int16()) / 256; // about +-128
        }
    }

    /// A number from number(), or `fallback` when that is not finite.
    real finite_number(real fallback = 0) {
        const real x = number();
        return std::isfinite(x) ? x : fallback;
    }

    Vec2 point() {
        const real x = number();
        return {x, number()};
    }

    /// A pose: a position and an angle (radians) read as numbers; any float
    /// may come out, NaN included.
    Transform pose() {
        const Vec2 p = point();
        return {p, Rot::from_angle(number())};
    }

    /// A shape the factories accept, or nothing.
    std::optional<Shape> shape() {
        switch (byte() % 7) {
        case 0: {
            const Vec2 center = point(); // (arguments are evaluated in no set order)
            return made(make_circle(center, number()));
        }
        case 1: {
            const Vec2 c1 = point();
            const Vec2 c2 = point();
            return made(make_capsule(c1, c2, number()));
        }
        case 2: {
            const real hx = number();
            return made(make_box(hx, number()));
        }
        case 3: {
            const real hx = number();
            const real hy = number();
            const Vec2 center = point();
            return made(make_offset_box(hx, hy, center, number()));
        }
        case 4: {
            std::vector<Vec2> points(3 + byte() % 10);
            for (Vec2& p : points) {
                p = point();
            }
            return made(make_polygon(points, byte() % 4 == 0 ? number() : real(0)));
        }
        case 5: {
            const Vec2 p1 = point();
            return made(make_segment(p1, point()));
        }
        default: {
            std::vector<Vec2> points(3 + byte() % 4);
            for (Vec2& p : points) {
                p = point();
            }
            auto loop = make_chain_loop(points);
            if (!loop) {
                return std::nullopt;
            }
            return Shape((*loop)[byte() % loop->size()]);
        }
        }
    }

  private:
    template <class T> static std::optional<Shape> made(const Result<T>& r) {
        if (!r) {
            return std::nullopt;
        }
        return Shape(*r);
    }

    real raw() {
        std::array<unsigned char, sizeof(real)> bytes{};
        for (unsigned char& b : bytes) {
            b = byte();
        }
        real x;
        std::memcpy(&x, bytes.data(), sizeof x);
        return x;
    }

    real special() {
        constexpr real inf = std::numeric_limits<real>::infinity();
        const std::array<real, 14> values{0,
                                          -real(0),
                                          real(1e-30),
                                          real(1e-7),
                                          real(1e-3),
                                          real(1e7),
                                          real(1e18),
                                          real(1e30),
                                          std::numeric_limits<real>::max(),
                                          std::numeric_limits<real>::denorm_min(),
                                          inf,
                                          -inf,
                                          std::numeric_limits<real>::quiet_NaN(),
                                          k_linear_slop};
        const real x = values[byte() % values.size()];
        return byte() % 2 == 0 ? x : -x;
    }

    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t at_ = 0;
};

} // namespace sweep::fuzz
