# Thin front door over CMake. `make` builds build/onnxify (Release); `make test` runs every test;
# `make check` is what CI runs: every test, then the unit tests again under ASan+UBSan.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc)
CMAKE_GEN  := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all configure test check asan asan-test fuzz bench demo compat format clean

all: configure
	cmake --build $(BUILD) -j $(JOBS)

configure:
	@test -f $(BUILD)/CMakeCache.txt || cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release

test: all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

asan:
	@test -f $(ASAN_BUILD)/CMakeCache.txt || cmake -S . -B $(ASAN_BUILD) $(CMAKE_GEN) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DONNXIFY_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS)

# Unit tests only: the oracle tests run the same code paths at corpus scale in the Release build.
asan-test: asan
	cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS) -L unit

check: test asan-test

fuzz:
	./scripts/fuzz.sh

bench: all
	./bench/run_all.sh

demo: all
	./scripts/demo.sh

# The version matrix: the real-library tests against the oldest, a middle and the newest releases of
# transformers, timm, huggingface_hub and numpy (scripts/compat.sh; not part of `make check`).
compat: all
	./scripts/compat.sh

format:
	find src tests bench fuzz -name '*.cpp' -o -name '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
