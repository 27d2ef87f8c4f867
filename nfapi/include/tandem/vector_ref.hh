// `v[i]` on a non-const tandem::Vector of integers (included by state.hh).
#pragma once

#include <cstddef>
#include <type_traits>

namespace tandem {

/// `v[i]` on a vector of integers: reads as `v.get(i)`; `v[i] = x`, `v[i] += n`, `-=`, `|=`,
/// `&=`, `^=`, `++`, `--` are `v.set(i, ...)` of the new value — one read-modify-write of
/// element `i`, which the compiler places on the switch as one register access. Assignments
/// and prefix `++`/`--` return the value written (not a reference: `uint32_t c = v[i] += 1;`
/// does not read the element again); postfix ones the value before.
template <class Vec, class T>
class VectorRef {
 public:
  VectorRef(Vec& v, size_t i) : v_(v), i_(i) {}
  operator T() const { return v_.get(i_); }
  T operator=(T x) {
    v_.set(i_, x);
    return x;
  }
  T operator=(const VectorRef& o) { return *this = T(o); }
  T operator+=(T n) { return *this = T(v_.get(i_) + n); }
  T operator-=(T n) { return *this = T(v_.get(i_) - n); }
  T operator|=(T n) { return *this = T(v_.get(i_) | n); }
  T operator&=(T n) { return *this = T(v_.get(i_) & n); }
  T operator^=(T n) { return *this = T(v_.get(i_) ^ n); }
  T operator++() { return *this += T(1); }
  T operator--() { return *this -= T(1); }
  T operator++(int) {
    T old = v_.get(i_);
    *this = T(old + 1);
    return old;
  }
  T operator--(int) {
    T old = v_.get(i_);
    *this = T(old - 1);
    return old;
  }

 private:
  Vec& v_;
  size_t i_;
};

/// What `v[i]` returns on a non-const vector: a `VectorRef` for integer elements, the element
/// (a copy) otherwise.
template <class Vec, class T>
using VectorIndex = std::conditional_t<std::is_integral_v<T>, VectorRef<Vec, T>, T>;

/// `v[i]`: a reference for integer elements, a copy of the element otherwise.
template <class T, class Vec>
VectorIndex<Vec, T> vector_index(Vec& v, size_t i) {
  if constexpr (std::is_integral_v<T>) {
    return VectorRef<Vec, T>(v, i);
  } else {
    return v.get(i);
  }
}

}  // namespace tandem
