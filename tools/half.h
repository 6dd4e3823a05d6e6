/* float16 and bfloat16 conversions and ulp distances shared by the CLI, the benchmark and the tests. */
#ifndef DMLVK_TOOLS_HALF_H
#define DMLVK_TOOLS_HALF_H

#include <stdint.h>

/* Rounds to nearest-even, as the library's shaders do. */
uint16_t half_from_float(float f);
float half_to_float(uint16_t h);
/* Rounds a double straight to float16 (nearest-even), without a double rounding through float. */
uint16_t half_from_double(double d);

/* bfloat16 (float32's upper half), nearest-even as the library's shaders round; NaN stays NaN,
 * values past the largest bfloat16 round to Inf. */
uint16_t bfloat16_from_float(float f);
float bfloat16_to_float(uint16_t b);
/* Rounds a double straight to bfloat16, without a double rounding through float. */
uint16_t bfloat16_from_double(double d);

/* Distance in units in the last place between two values of the same width (32 or 16 bits, float16 or bfloat16);
 * +0 and -0 are 0 apart. NaNs are not ordered: callers test them first. */
uint64_t ulp_distance32(float a, float b);
uint64_t ulp_distance16(uint16_t a, uint16_t b);

/* splitmix64: the documented generator behind "random" case data. */
uint64_t splitmix64_next(uint64_t *state);

#endif
