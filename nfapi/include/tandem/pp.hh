// Tandem NF API: preprocessor helpers for the registration macros (TANDEM_NF, TANDEM_HEADER,
// TANDEM_PARSE).
#pragma once

#define TANDEM_PP_NARG(...) TANDEM_PP_NARG_(__VA_ARGS__ __VA_OPT__(,) 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define TANDEM_PP_NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, N, ...) N
#define TANDEM_PP_CAT(a, b) TANDEM_PP_CAT_(a, b)
#define TANDEM_PP_CAT_(a, b) a##b
#define TANDEM_FE_0(M, s)
#define TANDEM_FE_1(M, s, x) M(s, x, 0)
#define TANDEM_FE_2(M, s, x, ...) M(s, x, 1) TANDEM_FE_1(M, s, __VA_ARGS__)
#define TANDEM_FE_3(M, s, x, ...) M(s, x, 2) TANDEM_FE_2(M, s, __VA_ARGS__)
#define TANDEM_FE_4(M, s, x, ...) M(s, x, 3) TANDEM_FE_3(M, s, __VA_ARGS__)
#define TANDEM_FE_5(M, s, x, ...) M(s, x, 4) TANDEM_FE_4(M, s, __VA_ARGS__)
#define TANDEM_FE_6(M, s, x, ...) M(s, x, 5) TANDEM_FE_5(M, s, __VA_ARGS__)
#define TANDEM_FE_7(M, s, x, ...) M(s, x, 6) TANDEM_FE_6(M, s, __VA_ARGS__)
#define TANDEM_FE_8(M, s, x, ...) M(s, x, 7) TANDEM_FE_7(M, s, __VA_ARGS__)
#define TANDEM_FE_9(M, s, x, ...) M(s, x, 8) TANDEM_FE_8(M, s, __VA_ARGS__)
#define TANDEM_FE_10(M, s, x, ...) M(s, x, 9) TANDEM_FE_9(M, s, __VA_ARGS__)
#define TANDEM_FE_11(M, s, x, ...) M(s, x, 10) TANDEM_FE_10(M, s, __VA_ARGS__)
#define TANDEM_FE_12(M, s, x, ...) M(s, x, 11) TANDEM_FE_11(M, s, __VA_ARGS__)
#define TANDEM_FE_13(M, s, x, ...) M(s, x, 12) TANDEM_FE_12(M, s, __VA_ARGS__)
#define TANDEM_FE_14(M, s, x, ...) M(s, x, 13) TANDEM_FE_13(M, s, __VA_ARGS__)
#define TANDEM_FE_15(M, s, x, ...) M(s, x, 14) TANDEM_FE_14(M, s, __VA_ARGS__)
#define TANDEM_FE_16(M, s, x, ...) M(s, x, 15) TANDEM_FE_15(M, s, __VA_ARGS__)
#define TANDEM_FE_17(M, s, x, ...) M(s, x, 16) TANDEM_FE_16(M, s, __VA_ARGS__)
#define TANDEM_FE_18(M, s, x, ...) M(s, x, 17) TANDEM_FE_17(M, s, __VA_ARGS__)
#define TANDEM_FE_19(M, s, x, ...) M(s, x, 18) TANDEM_FE_18(M, s, __VA_ARGS__)
#define TANDEM_FE_20(M, s, x, ...) M(s, x, 19) TANDEM_FE_19(M, s, __VA_ARGS__)
#define TANDEM_FE_21(M, s, x, ...) M(s, x, 20) TANDEM_FE_20(M, s, __VA_ARGS__)
#define TANDEM_FE_22(M, s, x, ...) M(s, x, 21) TANDEM_FE_21(M, s, __VA_ARGS__)
#define TANDEM_FE_23(M, s, x, ...) M(s, x, 22) TANDEM_FE_22(M, s, __VA_ARGS__)
#define TANDEM_FE_24(M, s, x, ...) M(s, x, 23) TANDEM_FE_23(M, s, __VA_ARGS__)
#define TANDEM_FE_25(M, s, x, ...) M(s, x, 24) TANDEM_FE_24(M, s, __VA_ARGS__)
#define TANDEM_FE_26(M, s, x, ...) M(s, x, 25) TANDEM_FE_25(M, s, __VA_ARGS__)
#define TANDEM_FE_27(M, s, x, ...) M(s, x, 26) TANDEM_FE_26(M, s, __VA_ARGS__)
#define TANDEM_FE_28(M, s, x, ...) M(s, x, 27) TANDEM_FE_27(M, s, __VA_ARGS__)
#define TANDEM_FE_29(M, s, x, ...) M(s, x, 28) TANDEM_FE_28(M, s, __VA_ARGS__)
#define TANDEM_FE_30(M, s, x, ...) M(s, x, 29) TANDEM_FE_29(M, s, __VA_ARGS__)
#define TANDEM_FE_31(M, s, x, ...) M(s, x, 30) TANDEM_FE_30(M, s, __VA_ARGS__)
#define TANDEM_FE_32(M, s, x, ...) M(s, x, 31) TANDEM_FE_31(M, s, __VA_ARGS__)
// Applies M(self, member, index) to each member, in order (the index counts down).
#define TANDEM_FOR_EACH(M, s, ...) \
  TANDEM_PP_CAT(TANDEM_FE_, TANDEM_PP_NARG(__VA_ARGS__))(M, s __VA_OPT__(,) __VA_ARGS__)
