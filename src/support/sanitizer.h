// ONNXIFY_ASAN is defined when the build runs under AddressSanitizer (GCC says so with
// __SANITIZE_ADDRESS__, Clang through __has_feature): code whose tricks ASan cannot follow (stack
// switching, address-space limits) asks it.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define ONNXIFY_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ONNXIFY_ASAN 1
#endif
#endif
