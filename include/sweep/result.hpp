// The library's error policy: no exception leaves sweep. What can fail
// returns Result<T>, a value or an Error (docs/conventions.md, "Errors").
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace sweep {

/// What went wrong, coarse enough to branch on.
enum class ErrorCode {
    invalid_input,    ///< NaN, infinity, negative size or another value outside its domain
    degenerate_shape, ///< too few distinct points, collinear points, zero area or radius
    parse_error,      ///< a file or field that does not follow its format
    io_error,         ///< a file that cannot be opened or read
    unsupported,      ///< a valid input that this version does not handle
    limit_exceeded,   ///< a size beyond a documented budget
    stale_handle,     ///< a handle whose object was destroyed
};

/// The name of an error code, for messages.
constexpr const char* to_string(ErrorCode code) {
    switch (code) {
    case ErrorCode::invalid_input:
        return "invalid input";
    case ErrorCode::degenerate_shape:
        return "degenerate shape";
    case ErrorCode::parse_error:
        return "parse error";
    case ErrorCode::io_error:
        return "I/O error";
    case ErrorCode::unsupported:
        return "unsupported";
    case ErrorCode::limit_exceeded:
        return "limit exceeded";
    case ErrorCode::stale_handle:
        return "stale handle";
    }
    return "error";
}

/// An error: a code to branch on and a message for a person.
struct Error {
    ErrorCode code = ErrorCode::invalid_input;
    std::string message;
};

/// Either a T or an Error. Check has_value() (or convert to bool) before
/// value(); reading the wrong alternative is a programming error (asserts).
template <class T> class [[nodiscard]] Result {
  public:
    Result(T value) : data_(std::move(value)) {}     // NOLINT: implicit by design
    Result(Error error) : data_(std::move(error)) {} // NOLINT: implicit by design

    bool has_value() const { return data_.index() == 0; }
    explicit operator bool() const { return has_value(); }

    T& value() & {
        assert(has_value());
        return std::get<0>(data_);
    }
    const T& value() const& {
        assert(has_value());
        return std::get<0>(data_);
    }
    T&& value() && {
        assert(has_value());
        return std::get<0>(std::move(data_));
    }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const {
        assert(!has_value());
        return std::get<1>(data_);
    }

  private:
    std::variant<T, Error> data_;
};

/// A Result with no value: success or an Error.
template <> class [[nodiscard]] Result<void> {
  public:
    Result() = default;
    Result(Error error) : error_(std::move(error)), ok_(false) {} // NOLINT: implicit by design
    bool has_value() const { return ok_; }
    explicit operator bool() const { return ok_; }
    const Error& error() const {
        assert(!ok_);
        return error_;
    }

  private:
    Error error_;
    bool ok_ = true;
};

} // namespace sweep
