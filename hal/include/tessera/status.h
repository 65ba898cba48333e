// Status: the result of an operation that can fail, in place of exceptions (none on target).
//
// Codes follow the canonical (absl/Pigweed) numbering so that a number printed by firmware means
// the same thing in host tools. [[nodiscard]] on the type makes ignoring a result a compile
// error under -Werror; discard deliberately with `(void)`.
#pragma once

#include <stdint.h>

namespace tessera {

enum class StatusCode : uint8_t {
  kOk = 0,
  kCancelled = 1,
  kUnknown = 2,
  kInvalidArgument = 3,
  kDeadlineExceeded = 4,
  kNotFound = 5,
  kAlreadyExists = 6,
  kPermissionDenied = 7,
  kResourceExhausted = 8,
  kFailedPrecondition = 9,
  kAborted = 10,
  kOutOfRange = 11,
  kUnimplemented = 12,
  kInternal = 13,
  kUnavailable = 14,
  kDataLoss = 15,
  kUnauthenticated = 16,
};

class [[nodiscard]] Status {
 public:
  constexpr Status() = default;
  constexpr explicit Status(StatusCode code) : code_(code) {}

  static constexpr Status InvalidArgument() { return Status(StatusCode::kInvalidArgument); }
  static constexpr Status FailedPrecondition() { return Status(StatusCode::kFailedPrecondition); }
  static constexpr Status OutOfRange() { return Status(StatusCode::kOutOfRange); }
  static constexpr Status Unavailable() { return Status(StatusCode::kUnavailable); }
  static constexpr Status DataLoss() { return Status(StatusCode::kDataLoss); }
  static constexpr Status Internal() { return Status(StatusCode::kInternal); }
  static constexpr Status Unimplemented() { return Status(StatusCode::kUnimplemented); }

  constexpr bool ok() const { return code_ == StatusCode::kOk; }
  constexpr StatusCode code() const { return code_; }

  friend constexpr bool operator==(Status a, Status b) { return a.code_ == b.code_; }

 private:
  StatusCode code_ = StatusCode::kOk;
};

constexpr Status OkStatus() {
  return Status();
}

// Name of a code for logs, e.g. "INVALID_ARGUMENT".
constexpr const char* status_code_name(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "OK";
    case StatusCode::kCancelled:
      return "CANCELLED";
    case StatusCode::kUnknown:
      return "UNKNOWN";
    case StatusCode::kInvalidArgument:
      return "INVALID_ARGUMENT";
    case StatusCode::kDeadlineExceeded:
      return "DEADLINE_EXCEEDED";
    case StatusCode::kNotFound:
      return "NOT_FOUND";
    case StatusCode::kAlreadyExists:
      return "ALREADY_EXISTS";
    case StatusCode::kPermissionDenied:
      return "PERMISSION_DENIED";
    case StatusCode::kResourceExhausted:
      return "RESOURCE_EXHAUSTED";
    case StatusCode::kFailedPrecondition:
      return "FAILED_PRECONDITION";
    case StatusCode::kAborted:
      return "ABORTED";
    case StatusCode::kOutOfRange:
      return "OUT_OF_RANGE";
    case StatusCode::kUnimplemented:
      return "UNIMPLEMENTED";
    case StatusCode::kInternal:
      return "INTERNAL";
    case StatusCode::kUnavailable:
      return "UNAVAILABLE";
    case StatusCode::kDataLoss:
      return "DATA_LOSS";
    case StatusCode::kUnauthenticated:
      return "UNAUTHENTICATED";
  }
  return "UNKNOWN";
}

}  // namespace tessera
