// One instruction set's row kernels (exp_row.hpp): exp of a row and a whole softmax row.
// cmake/IsaKernels.cmake compiles this file once per instruction set, with that set's compiler
// flags and MHAVIZ_ISA naming it.
//
// Code compiled for AVX2 or AVX-512 must never be linked in place of baseline code. Inline
// functions and templates are emitted in every object that uses them and the linker keeps one
// copy; were Eigen's templates instantiated here under their usual names, the linker could pick
// this object's AVX-512 copy for the baseline callers elsewhere in the core. So Eigen is renamed
// in this file (the macro below) and everything defined here lives in a namespace of its own
// instruction set; the test isa-kernel-symbols checks every object's defined symbols for that.

#ifndef MHAVIZ_ISA
#error "compile with -DMHAVIZ_ISA=<name> (cmake/IsaKernels.cmake)"
#endif

#define MHAVIZ_CAT_(a, b) a##b
#define MHAVIZ_CAT(a, b) MHAVIZ_CAT_(a, b)
// Every use of the namespace Eigen in Eigen's headers and below becomes mhaviz_eigen_<isa>.
#define Eigen MHAVIZ_CAT(mhaviz_eigen_, MHAVIZ_ISA)

#include <immintrin.h>
#include <math.h>  // ::expf and ::exp: C functions, no inline C++ wrapper emitted here

#include <Eigen/Core>
#include <cstdint>
#include <cstring>
#include <limits>

namespace mhaviz::detail::kernels::MHAVIZ_CAT(isa_, MHAVIZ_ISA) {

namespace {

using namespace Eigen::internal;  // the packet functions of this instruction set

template <typename T>
using Packet = typename packet_traits<T>::type;
template <typename T>
constexpr int kLanes = unpacket_traits<Packet<T>>::size;

// Whether any lane of a comparison's result is set, and stores that bypass the caches (for
// results the pass does not read again), for each packet type this instruction set uses.
#if defined(__AVX512F__)
[[maybe_unused]] bool any_lane(__m512 m) { return _mm512_test_epi32_mask(_mm512_castps_si512(m), _mm512_castps_si512(m)) != 0; }
[[maybe_unused]] bool any_lane(__m512d m) { return _mm512_test_epi64_mask(_mm512_castpd_si512(m), _mm512_castpd_si512(m)) != 0; }
[[maybe_unused]] void stream(float* p, __m512 v) { _mm512_stream_ps(p, v); }
[[maybe_unused]] void stream(double* p, __m512d v) { _mm512_stream_pd(p, v); }
/// y * 2^m for integral m.
[[maybe_unused]] __m512 times_pow2(__m512 y, __m512 m) { return _mm512_scalef_ps(y, m); }
/// Whether any lane of x is below `bound`, compared into a mask register (pcmp_lt would spread
/// the mask into a vector first, two more instructions per packet in the softmax's loop).
[[maybe_unused]] bool any_below(__m512 x, float bound) { return _mm512_cmp_ps_mask(x, _mm512_set1_ps(bound), _CMP_LT_OQ) != 0; }
[[maybe_unused]] bool any_below(__m512d x, double bound) { return _mm512_cmp_pd_mask(x, _mm512_set1_pd(bound), _CMP_LT_OQ) != 0; }
#else
/// y * 2^m for integral m in [-126, 127]: m + 127 placed in the exponent bits.
template <typename P>
[[maybe_unused]] P times_pow2(const P& y, const P& m) {
  using PI = typename unpacket_traits<P>::integer_packet;
  return pmul(y, preinterpret<P>(plogical_shift_left<23>(pcast<P, PI>(padd(m, pset1<P>(127.0F))))));
}
#endif
#if defined(__AVX__)
[[maybe_unused]] bool any_lane(__m256 m) { return _mm256_movemask_ps(m) != 0; }
[[maybe_unused]] bool any_lane(__m256d m) { return _mm256_movemask_pd(m) != 0; }
[[maybe_unused]] void stream(float* p, __m256 v) { _mm256_stream_ps(p, v); }
[[maybe_unused]] void stream(double* p, __m256d v) { _mm256_stream_pd(p, v); }
#endif
[[maybe_unused]] bool any_lane(__m128 m) { return _mm_movemask_ps(m) != 0; }
[[maybe_unused]] bool any_lane(__m128d m) { return _mm_movemask_pd(m) != 0; }
[[maybe_unused]] void stream(float* p, __m128 v) { _mm_stream_ps(p, v); }
[[maybe_unused]] void stream(double* p, __m128d v) { _mm_stream_pd(p, v); }

/// Whether any lane of x is below `bound` (the packet types without a mask register).
template <typename P, typename T>
[[maybe_unused]] bool any_below(const P& x, T bound) { return any_lane(pcmp_lt(x, pset1<P>(bound))); }

float c_exp(float x) { return ::expf(x); }
double c_exp(double x) { return ::exp(x); }

/// exact_exp's lanes whose exp may be below the smallest normal number (rare but for masked
/// keys): Eigen's vectorised exp clamps its argument (-88.38 float, -709.78 double), so a
/// masked key's exp(-inf) is set to exactly +0 here, and the other results below the smallest
/// normal number are recomputed with the C library's exp, which gives the subnormal (or 0).
template <typename T>
[[gnu::noinline]] Packet<T> exact_tiny(const Packet<T>& x, Packet<T> e) {
  const Packet<T> masked = pcmp_eq(x, pset1<Packet<T>>(-std::numeric_limits<T>::infinity()));
  e = pandnot(e, masked);
  const Packet<T> tiny = pandnot(pcmp_lt(e, pset1<Packet<T>>(std::numeric_limits<T>::min())), masked);
  if (!any_lane(tiny)) return e;
  alignas(64) T xs[kLanes<T>], es[kLanes<T>];
  pstore(xs, x);
  pstore(es, e);
  for (int l = 0; l < kLanes<T>; ++l) {
    if (es[l] < std::numeric_limits<T>::min() && xs[l] != -std::numeric_limits<T>::infinity()) {
      es[l] = c_exp(xs[l]);
    }
  }
  return pload<Packet<T>>(es);
}

/// exp(x) lane by lane with PyTorch's exact values (exact_tiny).
template <typename T>
[[gnu::always_inline]] inline Packet<T> exact_exp(const Packet<T>& x) {
  const Packet<T> e = pexp(x);
  return any_below(e, std::numeric_limits<T>::min()) ? exact_tiny<T>(x, e) : e;
}

/// From this argument up to 0 exp's result is a normal number: the softmax's exponentials
/// (arguments score - max <= 0) below it are made by softmax_low.
template <typename T>
constexpr T kExpLow = sizeof(T) == sizeof(float) ? T(-87) : T(-708);

/// softmax_exp's lanes below kExpLow: exp(-inf) of a masked key is exactly +0, the others are
/// the C library's exp (the subnormal, or 0).
template <typename T>
[[gnu::noinline]] Packet<T> softmax_low(const Packet<T>& x, Packet<T> e) {
  const Packet<T> masked = pcmp_eq(x, pset1<Packet<T>>(-std::numeric_limits<T>::infinity()));
  e = pandnot(e, masked);
  if (!any_lane(pandnot(pcmp_lt(x, pset1<Packet<T>>(kExpLow<T>)), masked))) return e;
  alignas(64) T xs[kLanes<T>], es[kLanes<T>];
  pstore(xs, x);
  pstore(es, e);
  for (int l = 0; l < kLanes<T>; ++l) {
    if (xs[l] < kExpLow<T> && xs[l] != -std::numeric_limits<T>::infinity()) es[l] = c_exp(xs[l]);
  }
  return pload<Packet<T>>(es);
}

/// exp(x) for kExpLow <= x <= 0, other lanes unspecified: Eigen's float exp (Cephes' range
/// reduction and polynomial) without its clamping and with 2^m made in one step.
[[gnu::always_inline]] inline Packet<float> exp_nonpositive(const Packet<float>& x) {
  using P = Packet<float>;
  const P m = pfloor(pmadd(x, pset1<P>(1.44269504088896341F), pset1<P>(0.5F)));
  P r = pmadd(m, pset1<P>(-0.693359375F), x);  // x - m ln 2, ln 2 in two parts
  r = pmadd(m, pset1<P>(2.12194440e-4F), r);
  const P r2 = pmul(r, r), r3 = pmul(r2, r);
  P y = pmadd(pset1<P>(1.9875691500E-4F), r, pset1<P>(1.3981999507E-3F));
  P y1 = pmadd(pset1<P>(4.1665795894E-2F), r, pset1<P>(1.6666665459E-1F));
  const P y2 = padd(r, pset1<P>(1.0F));
  y = pmadd(y, r, pset1<P>(8.3334519073E-3F));
  y1 = pmadd(y1, r, pset1<P>(5.0000001201E-1F));
  y = pmadd(y, r3, y1);
  y = pmadd(y, r2, y2);
  return times_pow2(y, m);
}
[[gnu::always_inline]] inline Packet<double> exp_nonpositive(const Packet<double>& x) {
  return pexp(x);
}

/// exp(x) for x <= 0 (a score minus its row's maximum) with PyTorch's exact values
/// (softmax_low).
template <typename T>
[[gnu::always_inline]] inline Packet<T> softmax_exp(const Packet<T>& x) {
  const Packet<T> e = exp_nonpositive(x);
  return any_below(x, kExpLow<T>) ? softmax_low<T>(x, e) : e;
}

/// The last n % kLanes elements of a row as one packet: `pad` in the lanes past the row.
template <typename T>
struct Tail {
  alignas(64) T v[kLanes<T>];
  Tail(const T* from, std::int64_t count, T pad) {
    for (int l = 0; l < kLanes<T>; ++l) v[l] = l < count ? from[l] : pad;
  }
  void store(T* to, std::int64_t count) const { std::memcpy(to, v, static_cast<std::size_t>(count) * sizeof(T)); }
};

template <typename T>
void exp_shifted(const T* in, T* out, std::int64_t n, T shift) {
  constexpr int W = kLanes<T>;
  const Packet<T> s = pset1<Packet<T>>(shift);
  std::int64_t j = 0;
  for (; j + W <= n; j += W) pstoreu(out + j, exact_exp<T>(psub(ploadu<Packet<T>>(in + j), s)));
  if (j < n) {
    Tail<T> t(in + j, n - j, T(0));
    pstore(t.v, exact_exp<T>(psub(pload<Packet<T>>(t.v), s)));
    t.store(out + j, n - j);
  }
}

/// row = softmax(row + mask) in place (docs/semantics.md step 10), also written to `copy` when
/// it is not null (by streaming stores when `stream_copy` and `copy` is aligned for them; the
/// caller fences). A key at -inf gets exactly +0; a row whose largest score is -inf (every key
/// masked) becomes NaN, or +0 when `fully_masked_to_zero`; a row with a NaN or +inf score
/// becomes NaN, as in PyTorch.
template <typename T>
void softmax(T* row, const T* mask, T* copy, bool stream_copy, std::int64_t n,
             bool fully_masked_to_zero) {
  using P = Packet<T>;
  constexpr int W = kLanes<T>;
  constexpr T kInf = std::numeric_limits<T>::infinity();
  const std::int64_t full = n - n % W;
  // Pass 1: scores plus mask, their maximum, and their sum, which is NaN if a score is NaN
  // (or if both +inf and -inf occur: a row with +inf is NaN anyway). Four chains of each, so
  // that the loop does not wait on the latency of one.
  P mx[4], check[4];
  for (int c = 0; c < 4; ++c) mx[c] = check[c] = pset1<P>(-kInf);
  std::int64_t j = 0;
  const auto add_mask = [&](std::int64_t at) {
    P s = ploadu<P>(row + at);
    if (mask != nullptr) {
      s = padd(s, ploadu<P>(mask + at));
      pstoreu(row + at, s);
    }
    return s;
  };
  for (; j + 4 * W <= full; j += 4 * W) {
    for (int c = 0; c < 4; ++c) {
      const P s = add_mask(j + c * W);
      mx[c] = pmax(mx[c], s);
      check[c] = padd(check[c], s);
    }
  }
  for (; j < full; j += W) {
    const P s = add_mask(j);
    mx[0] = pmax(mx[0], s);
    check[0] = padd(check[0], s);
  }
  if (full < n) {
    Tail<T> t(row + full, n - full, -kInf);
    if (mask != nullptr) {
      const Tail<T> m(mask + full, n - full, T(0));
      pstore(t.v, padd(pload<P>(t.v), pload<P>(m.v)));
      t.store(row + full, n - full);
    }
    mx[1] = pmax(mx[1], pload<P>(t.v));
    check[1] = padd(check[1], pload<P>(t.v));
  }
  const T checked = predux(padd(padd(check[0], check[1]), padd(check[2], check[3])));
  const T top = checked != checked ? checked  // NaN
                                    : predux_max(pmax(pmax(mx[0], mx[1]), pmax(mx[2], mx[3])));
  if (!(top > -kInf && top < kInf)) {  // every key masked, or a NaN or +inf score
    const T fill = fully_masked_to_zero && top == -kInf ? T(0) : std::numeric_limits<T>::quiet_NaN();
    for (std::int64_t i = 0; i < n; ++i) row[i] = fill;
    if (copy != nullptr) std::memcpy(copy, row, static_cast<std::size_t>(n) * sizeof(T));
    return;
  }
  // Pass 2: exp(s - max) and its sum.
  const P shift = pset1<P>(top);
  P sum0 = pzero(shift), sum1 = pzero(shift);
  for (j = 0; j + 2 * W <= full; j += 2 * W) {
    const P e0 = softmax_exp<T>(psub(ploadu<P>(row + j), shift));
    const P e1 = softmax_exp<T>(psub(ploadu<P>(row + j + W), shift));
    pstoreu(row + j, e0);
    pstoreu(row + j + W, e1);
    sum0 = padd(sum0, e0);
    sum1 = padd(sum1, e1);
  }
  for (; j < full; j += W) {
    const P e = softmax_exp<T>(psub(ploadu<P>(row + j), shift));
    pstoreu(row + j, e);
    sum0 = padd(sum0, e);
  }
  if (full < n) {
    Tail<T> t(row + full, n - full, -kInf);
    pstore(t.v, softmax_exp<T>(psub(pload<P>(t.v), shift)));
    t.store(row + full, n - full);
    sum1 = padd(sum1, pload<P>(t.v));
  }
  // Pass 3: divided by the sum (times its reciprocal, as PyTorch's softmax kernel does).
  const P scale = pset1<P>(T(1) / predux(padd(sum0, sum1)));
  const bool streamed =
      stream_copy && copy != nullptr && reinterpret_cast<std::uintptr_t>(copy) % sizeof(P) == 0;
  for (j = 0; j < full; j += W) {
    const P w = pmul(ploadu<P>(row + j), scale);
    pstoreu(row + j, w);
    if (streamed) {
      stream(copy + j, w);
    } else if (copy != nullptr) {
      pstoreu(copy + j, w);
    }
  }
  for (; j < n; ++j) row[j] *= pfirst(scale);
  if (copy != nullptr) {
    std::memcpy(copy + full, row + full, static_cast<std::size_t>(n - full) * sizeof(T));
  }
}

}  // namespace

void exp_f32(const float* in, float* out, std::int64_t n, float shift) {
  exp_shifted(in, out, n, shift);
}

void exp_f64(const double* in, double* out, std::int64_t n, double shift) {
  exp_shifted(in, out, n, shift);
}

void softmax_f32(float* row, const float* mask, float* copy, bool stream_copy, std::int64_t n,
                 bool fully_masked_to_zero) {
  softmax(row, mask, copy, stream_copy, n, fully_masked_to_zero);
}

void softmax_f64(double* row, const double* mask, double* copy, bool stream_copy,
                 std::int64_t n, bool fully_masked_to_zero) {
  softmax(row, mask, copy, stream_copy, n, fully_masked_to_zero);
}

}  // namespace mhaviz::detail::kernels::MHAVIZ_CAT(isa_, MHAVIZ_ISA)
