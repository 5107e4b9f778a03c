// Every pickle opcode of protocols 0-5: the one table. The unpickler declares one handler per row
// and dispatches through a table built from these rows, so a row without a handler does not link.
// A unit test checks the table against CPython's pickletools.opcodes. Internal to src/weights.
#pragma once

#include <cstdint>
#include <string_view>

namespace onnxify::weights {

// X(NAME, byte, protocol that introduced it)
#define ONNXIFY_PICKLE_OPCODES(X) \
  X(MARK, 0x28, 0)                \
  X(STOP, 0x2e, 0)                \
  X(POP, 0x30, 0)                 \
  X(POP_MARK, 0x31, 1)            \
  X(DUP, 0x32, 0)                 \
  X(FLOAT, 0x46, 0)               \
  X(INT, 0x49, 0)                 \
  X(BININT, 0x4a, 1)              \
  X(BININT1, 0x4b, 1)             \
  X(LONG, 0x4c, 0)                \
  X(BININT2, 0x4d, 1)             \
  X(NONE, 0x4e, 0)                \
  X(PERSID, 0x50, 0)              \
  X(BINPERSID, 0x51, 1)           \
  X(REDUCE, 0x52, 0)              \
  X(STRING, 0x53, 0)              \
  X(BINSTRING, 0x54, 1)           \
  X(SHORT_BINSTRING, 0x55, 1)     \
  X(UNICODE, 0x56, 0)             \
  X(BINUNICODE, 0x58, 1)          \
  X(APPEND, 0x61, 0)              \
  X(BUILD, 0x62, 0)               \
  X(GLOBAL, 0x63, 0)              \
  X(DICT, 0x64, 0)                \
  X(EMPTY_DICT, 0x7d, 1)          \
  X(APPENDS, 0x65, 1)             \
  X(GET, 0x67, 0)                 \
  X(BINGET, 0x68, 1)              \
  X(INST, 0x69, 0)                \
  X(LONG_BINGET, 0x6a, 1)         \
  X(LIST, 0x6c, 0)                \
  X(EMPTY_LIST, 0x5d, 1)          \
  X(OBJ, 0x6f, 1)                 \
  X(PUT, 0x70, 0)                 \
  X(BINPUT, 0x71, 1)              \
  X(LONG_BINPUT, 0x72, 1)         \
  X(SETITEM, 0x73, 0)             \
  X(TUPLE, 0x74, 0)               \
  X(EMPTY_TUPLE, 0x29, 1)         \
  X(SETITEMS, 0x75, 1)            \
  X(BINFLOAT, 0x47, 1)            \
  X(PROTO, 0x80, 2)               \
  X(NEWOBJ, 0x81, 2)              \
  X(EXT1, 0x82, 2)                \
  X(EXT2, 0x83, 2)                \
  X(EXT4, 0x84, 2)                \
  X(TUPLE1, 0x85, 2)              \
  X(TUPLE2, 0x86, 2)              \
  X(TUPLE3, 0x87, 2)              \
  X(NEWTRUE, 0x88, 2)             \
  X(NEWFALSE, 0x89, 2)            \
  X(LONG1, 0x8a, 2)               \
  X(LONG4, 0x8b, 2)               \
  X(BINBYTES, 0x42, 3)            \
  X(SHORT_BINBYTES, 0x43, 3)      \
  X(SHORT_BINUNICODE, 0x8c, 4)    \
  X(BINUNICODE8, 0x8d, 4)         \
  X(BINBYTES8, 0x8e, 4)           \
  X(EMPTY_SET, 0x8f, 4)           \
  X(ADDITEMS, 0x90, 4)            \
  X(FROZENSET, 0x91, 4)           \
  X(NEWOBJ_EX, 0x92, 4)           \
  X(STACK_GLOBAL, 0x93, 4)        \
  X(MEMOIZE, 0x94, 4)             \
  X(FRAME, 0x95, 4)               \
  X(BYTEARRAY8, 0x96, 5)          \
  X(NEXT_BUFFER, 0x97, 5)         \
  X(READONLY_BUFFER, 0x98, 5)

struct OpcodeInfo {
  std::string_view name;
  uint8_t code;
  int protocol;
};

// Every row, in table order (tests walk the table).
const OpcodeInfo* all_opcodes(size_t* count);

// The highest pickle protocol the unpickler reads.
constexpr int kMaxPickleProtocol = 5;

}  // namespace onnxify::weights
