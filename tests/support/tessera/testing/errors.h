// Checking the loud failures of the host machine: a guest error, a bad
// access or a misused API throws std::logic_error with a message that
// names what went wrong.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>

namespace tessera::testing {

// The message of the std::logic_error `action` throws, or
// "(no std::logic_error)".
inline std::string ErrorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "(no std::logic_error)";
}

inline ::testing::AssertionResult Mentions(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << '"' << text << "\" does not mention \"" << part << '"';
}

}  // namespace tessera::testing
