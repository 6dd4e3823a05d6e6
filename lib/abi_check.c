/* Static assertions, generated from the shaders' SPIR-V (glsl/check_abi.py), that the C structs
 * of the *_abi.h headers lay out as the shaders do: a mismatch fails the build here. */
#include "abi_check.h"
