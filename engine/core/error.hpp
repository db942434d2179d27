// Errors are values with a message that names what is wrong and where (file, key, value).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace ndem {

struct Error {
    std::string message;  ///< One line: "<where>: <key>: <what is wrong> (got <value>)".
};

/// A value or an Error. Deliberately small: the engine never throws across its public API.
template <class T>
class Expected {
  public:
    Expected(T value) : m_data(std::move(value)) {}
    Expected(Error error) : m_data(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_data); }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<T>(m_data); }
    const T& value() const { return std::get<T>(m_data); }
    T& operator*() { return value(); }
    T* operator->() { return &value(); }
    const Error& error() const { return std::get<Error>(m_data); }

  private:
    std::variant<T, Error> m_data;
};

}  // namespace ndem
