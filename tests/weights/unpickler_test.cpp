// The unpickler's opcodes and error paths on hand-written pickles. (Values pickled by CPython at
// every protocol are checked against CPython's repr by pickle_oracle_test.py.)
#include "weights/unpickler.h"

#include <gtest/gtest.h>

#include "builders.h"
#include "support/diagnostic.h"
#include "weights/globals.h"
#include "weights/pickle_ops.h"

namespace onnxify::weights {
namespace {

using namespace std::string_literals;

using testing::bytes_of;

std::string load(const std::string& pickle, UnpickleOptions options = {}) {
  Heap heap;
  return repr(unpickle(bytes_of(pickle), 0, heap, options).value);
}

std::string error_of(const std::string& pickle, UnpickleOptions options = {}) {
  try {
    Heap heap;
    unpickle(bytes_of(pickle), 0, heap, options);
  } catch (const Diagnostic& d) {
    return d.message();
  }
  return "(no error)";
}

std::string P(std::initializer_list<int> bytes) { return std::string(bytes.begin(), bytes.end()); }

TEST(Unpickler, OpcodeTableIsOneToOne) {
  size_t n;
  const OpcodeInfo* ops = all_opcodes(&n);
  EXPECT_EQ(n, 68u);  // pickletools.opcodes of CPython 3.11
  bool seen[256] = {};
  for (size_t i = 0; i < n; ++i) {
    EXPECT_FALSE(seen[ops[i].code]) << ops[i].name;
    seen[ops[i].code] = true;
    EXPECT_LE(ops[i].protocol, kMaxPickleProtocol);
  }
}

TEST(Unpickler, ScalarsAndStrings) {
  EXPECT_EQ(load("N."), "None");
  EXPECT_EQ(load("\x88."), "True");
  EXPECT_EQ(load("I01\n."), "True");  // protocol 0 spells bools as INT 00 / 01
  EXPECT_EQ(load("I-42\n."), "-42");
  EXPECT_EQ(load("L123456789012345678901234567890L\n."), "123456789012345678901234567890");
  EXPECT_EQ(load(P({'J', 0xff, 0xff, 0xff, 0xff, '.'})), "-1");
  EXPECT_EQ(load(P({'M', 0xff, 0xff, '.'})), "65535");
  EXPECT_EQ(load(P({0x8a, 9, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, '.'})), "9223372036854775808");
  EXPECT_EQ(load(P({0x8a, 1, 0xff, '.'})), "-1");
  EXPECT_EQ(load(P({0x8a, 0, '.'})), "0");
  EXPECT_EQ(load("F2.5\n."), "2.5");
  EXPECT_EQ(load(P({'G', 0x3f, 0xf8, 0, 0, 0, 0, 0, 0, '.'})), "1.5");
  EXPECT_EQ(load("S'it\\'s\\n\\x41\\101'\n."), "\"it's\\nAA\"");
  EXPECT_EQ(load("Vcaf\\u00e9 \\U0001f600\n."), "'café 😀'");
  EXPECT_EQ(load(P({'X', 2, 0, 0, 0, 'h', 'i', '.'})), "'hi'");
  EXPECT_EQ(load(P({0x8c, 2, 0xc3, 0xa9, '.'})), "'é'");
  EXPECT_EQ(load(P({'C', 2, 0, 0xff, '.'})), "b'\\x00\\xff'"s);
  EXPECT_EQ(load(P({0x96, 1, 0, 0, 0, 0, 0, 0, 0, 'z', '.'})), "bytearray(b'z')");
}

TEST(Unpickler, ContainersMarksAndMemo) {
  EXPECT_EQ(load("(I1\nI2\nt."), "(1, 2)");
  EXPECT_EQ(load(P({'K', 1, 0x85, '.'})), "(1,)");
  EXPECT_EQ(load("(lp0\nI1\naI2\na."), "[1, 2]");
  EXPECT_EQ(load("(dp0\nS'a'\nI1\ns."), "{'a': 1}");
  EXPECT_EQ(load(P({'}', '(', 'K', 1, 'K', 2, 'K', 3, 'K', 4, 'u', '.'})), "{1: 2, 3: 4}");
  EXPECT_EQ(load(P({0x8f, '(', 'K', 5, 0x90, '.'})), "{5}");
  EXPECT_EQ(load(P({'(', 'K', 5, 0x91, '.'})), "frozenset({5})");
  // Shared references through the memo, and a list that contains itself.
  EXPECT_EQ(load(P({']', 'q', 0, '(', 'h', 0, 'h', 0, 'l', '.'})), "[[], []]");
  EXPECT_EQ(load(P({']', 'q', 7, 'h', 7, 'a', '.'})), "[[...]]");
  EXPECT_EQ(load(P({']', 0x94, 'r', 5, 0, 0, 0, 'j', 5, 0, 0, 0, 'a', 'h', 0, 0x86, '.'})),
            "([[...]], [[...]])");
  // POP and POP_MARK, DUP; POP on an empty frame discards the mark (pickle.py's load_pop).
  EXPECT_EQ(load(P({'K', 1, 'K', 2, '0', '.'})), "1");
  EXPECT_EQ(load(P({'K', 1, '(', 'K', 2, 'K', 3, '1', '.'})), "1");
  EXPECT_EQ(load(P({'K', 1, '(', '0', '.'})), "1");
  EXPECT_EQ(load(P({'K', 1, '2', 0x86, '.'})), "(1, 1)");
  // A frame only wraps opcodes.
  EXPECT_EQ(load(P({0x80, 4, 0x95, 3, 0, 0, 0, 0, 0, 0, 0, 'K', 7, '.'})), "7");
  // Later keys replace values, as Python dicts do; 1, 1.0 and True are one key.
  EXPECT_EQ(load(P({'}', '(', 'K', 1, 'K', 2, 'G', 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 'K', 3, 'u', '.'})),
            "{1: 3}");
}

TEST(Unpickler, AllowlistedGlobals) {
  EXPECT_EQ(load("ccollections\nOrderedDict\n)R(K\x01K\x02u."), "OrderedDict([(1, 2)])");
  EXPECT_EQ(load(P({0x8c, 11,  'c', 'o', 'l', 'l', 'e', 'c', 't', 'i', 'o', 'n',  's', 0x8c, 11,
                    'O',  'r', 'd', 'e', 'r', 'e', 'd', 'D', 'i', 'c', 't', 0x93, ')', 'R',  '.'})),
            "OrderedDict()");
  EXPECT_EQ(load("ctorch\nfloat16\n."), "torch.float16");
  EXPECT_EQ(load("ctorch\nSize\n((K\x02K\x03tt\x52."), "(2, 3)");
  EXPECT_EQ(load("c__builtin__\nset\n((K\x01lt\x52."), "{1}");
  EXPECT_EQ(load("c_codecs\nencode\n(X\x02\x00\x00\x00\xc3\xbfX\x06\x00\x00\x00latin1t\x52."s), "b'\\xff'");
  EXPECT_EQ(load("cargparse\nNamespace\n)\x81}(X\x02\x00\x00\x00lrG?\xb9\x99\x99\x99\x99\x99\x9aub."s),
            "<argparse.Namespace>");
  // BUILD on an OrderedDict keeps its attributes (a state_dict's _metadata).
  Heap heap;
  Value v =
      unpickle(bytes_of("ccollections\nOrderedDict\n)R}(X\x09\x00\x00\x00_metadataK\x01ub."s), 0, heap, {})
          .value;
  ASSERT_EQ(v.dict().attrs.size(), 1u);
  EXPECT_EQ(v.dict().attrs[0].first, "_metadata");
}

TEST(Unpickler, RefusesCode) {
  const char* tail = ": the checkpoint tried to run code (onnxify never executes code from a checkpoint)";
  EXPECT_EQ(error_of("cos\nsystem\n(S'echo hi'\ntR."), std::string("refusing to load 'os.system'") + tail);
  EXPECT_EQ(error_of("cposix\nsystem\n."), std::string("refusing to load 'posix.system'") + tail);
  EXPECT_EQ(error_of("c__builtin__\neval\n."),
            std::string("refusing to load 'builtins.eval' (written '__builtin__.eval')") + tail);
  EXPECT_EQ(error_of("csubprocess\nPopen\n."), std::string("refusing to load 'subprocess.Popen'") + tail);
  EXPECT_EQ(error_of("ccommands\nPopen\n."),
            std::string("refusing to load 'subprocess.Popen' (written 'commands.Popen')") + tail);
  EXPECT_EQ(error_of(P({0x8c, 8,   'b', 'u', 'i', 'l', 't', 'i', 'n',  's', 0x8c,
                        7,    'g', 'e', 't', 'a', 't', 't', 'r', 0x93, '.'})),
            std::string("refusing to load 'builtins.getattr'") + tail);
  EXPECT_EQ(error_of("ios\nsystem\n(S'x'\n."), std::string("refusing to load 'os.system'") + tail);
  EXPECT_EQ(error_of("c__main__\nNet\n)\x81."),
            std::string("refusing to load '__main__.Net'") + tail +
                "; it pickles whole objects: save model.state_dict() instead");
}

TEST(Unpickler, MalformedInput) {
  EXPECT_EQ(error_of(""), "truncated pickle in the pickle: it ends at byte 0 without a STOP opcode");
  EXPECT_EQ(error_of("K"), "truncated pickle in the pickle: BININT1 at byte 0 needs 1 bytes, 0 remain");
  // A claimed length is checked before anything is allocated.
  EXPECT_EQ(
      error_of(P({0x8d, 0, 0, 0, 0, 0, 0, 0, 0x40, 'a'})),
      "truncated pickle in the pickle: BINUNICODE8 at byte 0 needs 4611686018427387904 bytes, 1 remain");
  EXPECT_EQ(error_of(P({0x95, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 'N', '.'})),
            "truncated pickle in the pickle: a frame at byte 0 claims 4294967295 bytes, 2 remain");
  EXPECT_EQ(error_of(P({'T', 0xff, 0xff, 0xff, 0xff})),
            "bad pickle in the pickle at byte 0: BINSTRING with a negative length");
  EXPECT_EQ(error_of(P({0x8b, 0xff, 0xff, 0xff, 0xff})),
            "bad pickle in the pickle at byte 0: LONG4 with a negative byte count");
  EXPECT_EQ(error_of("N\xff"), "bad pickle in the pickle at byte 1: unknown opcode 0xff");
  EXPECT_EQ(error_of(P({0x80, 6})), "bad pickle in the pickle at byte 0: unsupported pickle protocol 6");
  EXPECT_EQ(error_of("."), "bad pickle in the pickle at byte 0: STOP pops from an empty stack");
  EXPECT_EQ(error_of("(."), "bad pickle in the pickle at byte 1: STOP pops from an empty stack");
  EXPECT_EQ(error_of("t."), "bad pickle in the pickle at byte 0: TUPLE without a MARK");
  EXPECT_EQ(error_of("NN\x87."), "bad pickle in the pickle at byte 2: TUPLE3 needs 3 values on the stack");
  EXPECT_EQ(error_of(P({'h', 3, '.'})), "bad pickle in the pickle at byte 0: memo key 3 is not defined");
  EXPECT_EQ(error_of("q\x01."), "bad pickle in the pickle at byte 0: BINPUT needs a value on the stack");
  EXPECT_EQ(error_of("}Na."), "bad pickle in the pickle at byte 2: APPEND to a dict");
  EXPECT_EQ(error_of("]NNs."), "bad pickle in the pickle at byte 3: SETITEM on a list");
  EXPECT_EQ(error_of("(NNNd."), "bad pickle in the pickle at byte 4: DICT with an odd number of items");
  EXPECT_EQ(error_of("}]Ns."), "unhashable type: 'list'");
  EXPECT_EQ(error_of("K\x01)R."),
            "bad pickle in the pickle at byte 3: REDUCE calls a int, which is not callable");
  EXPECT_EQ(error_of("]N\x81."),
            "bad pickle in the pickle at byte 2: NEWOBJ calls a list, which is not callable");
  EXPECT_EQ(error_of(P({0x82, 7})),
            "bad pickle in the pickle at byte 0: extension code 7: the copyreg extension "
            "registry is not supported");
  EXPECT_EQ(error_of(P({0x97})),
            "bad pickle in the pickle at byte 0: an out-of-band buffer (pickle protocol 5), "
            "which a file cannot carry");
  EXPECT_EQ(error_of("Q."), "bad pickle in the pickle at byte 0: BINPERSID pops from an empty stack");
  EXPECT_EQ(error_of("N\x51."),
            "bad pickle in the pickle at byte 1: a persistent id, but this pickle cannot refer "
            "to outside data");
  EXPECT_EQ(error_of(P({'X', 1, 0, 0, 0, 0xff, '.'})),
            "bad pickle in the pickle at byte 0: a string is not valid UTF-8");
  EXPECT_EQ(error_of("S'abc\n."),
            "bad pickle in the pickle at byte 0: the STRING opcode argument must be quoted");
  EXPECT_EQ(error_of("Ix\n."), "bad pickle in the pickle at byte 0: 'x' is not an integer");
  EXPECT_EQ(error_of("I1"), "truncated pickle in the pickle: INT at byte 0 has no end of line");
  EXPECT_EQ(error_of("cbuiltins\nset\n\x8c\x01"
                     "a\x81."),
            "'builtins.set' is called with a str instead of an argument tuple");
  EXPECT_EQ(error_of("ctorch._utils\n_rebuild_tensor_v2\n)\x81."),
            "'torch._utils._rebuild_tensor_v2' is a function; the pickle cannot create an instance of it");
  EXPECT_EQ(error_of("ctorch._utils\n_rebuild_sparse_tensor\n(NNtR."),
            "'torch._utils._rebuild_sparse_tensor' builds a sparse tensor, which onnxify does not read");
  EXPECT_EQ(error_of("ctorch\nQInt8Storage\n."),
            "'torch.QInt8Storage' holds quantized data, which onnxify does not read");
  UnpickleOptions named;
  named.name = "'archive/data.pkl'";
  EXPECT_EQ(error_of("NN", named),
            "truncated pickle in 'archive/data.pkl': it ends at byte 2 without a STOP opcode");
}

// A persistent id resolver that hands out one 24-byte float32 storage.
UnpickleOptions with_storage(Heap& heap) {
  UnpickleOptions o;
  auto* s = heap.make<StorageObject>();
  s->dtype = DType::Float32;
  s->key.push_back('0');  // not = "0": GCC 12 warns falsely (-Wrestrict)
  s->numel = 6;
  s->data = bytes_of(std::string(24, '\0'));
  s->loaded = true;
  o.persistent_load = [s](const Value&) { return Value::object(Kind::Storage, s); };
  return o;
}

TEST(Unpickler, RebuildsTensors) {
  Heap heap;
  UnpickleOptions o = with_storage(heap);
  // _rebuild_tensor_v2(storage, 1, (2, 2), (1, 2), False, OrderedDict())
  std::string p =
      "ctorch._utils\n_rebuild_tensor_v2\n(NQK\x01K\x02K\x02\x86K\x01K\x02\x86\x89"
      "ccollections\nOrderedDict\n)RtR.";
  Value v = unpickle(bytes_of(p), 0, heap, o).value;
  ASSERT_TRUE(v.is(Kind::Tensor));
  const Tensor& t = v.tensor().tensor;
  EXPECT_EQ(t.dtype, DType::Float32);
  EXPECT_EQ(t.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(t.strides, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(t.storage_offset, 1);
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_EQ(repr(v), "tensor(float32[2, 2])");
  // _rebuild_parameter(tensor, True, OrderedDict()) marks it a parameter.
  Value param =
      unpickle(bytes_of("ctorch._utils\n_rebuild_parameter\n(ctorch._utils\n_rebuild_tensor\n(NQK\x00))tR"
                        "\x88"
                        "ccollections\nOrderedDict\n)RtR."s),
               0, heap, o)
          .value;
  EXPECT_TRUE(param.tensor().parameter);
  EXPECT_TRUE(param.tensor().requires_grad);
  // _rebuild_tensor_v3 takes the dtype explicitly (an untyped storage underneath).
  Value v3 =
      unpickle(
          bytes_of(
              "ctorch._utils\n_rebuild_tensor_v3\n(NQK\x00K\x0c\x85K\x01\x85\x89Nctorch\nbfloat16\ntR."s),
          0, heap, o)
          .value;
  EXPECT_EQ(v3.tensor().tensor.dtype, DType::BFloat16);
  EXPECT_EQ(v3.tensor().tensor.shape, std::vector<int64_t>{12});
}

TEST(Unpickler, RebuildFromTypeV2) {
  // torch >= 2.0 pickles a tensor with attributes (or an nn.Parameter subclass's data) as
  // _rebuild_from_type_v2(_rebuild_tensor_v2, torch.Tensor | Parameter, args, state).
  Heap heap;
  UnpickleOptions o = with_storage(heap);
  for (const char* cls : {"ctorch\nTensor\n", "ctorch.nn.parameter\nParameter\n"}) {
    std::string p = "ctorch._tensor\n_rebuild_from_type_v2\n(ctorch._utils\n_rebuild_tensor_v2\n"s + cls +
                    "(NQK\x00K\x06\x85K\x01\x85\x89Nt}tR."s;
    Value v = unpickle(bytes_of(p), 0, heap, o).value;
    ASSERT_TRUE(v.is(Kind::Tensor)) << cls;
    EXPECT_EQ(v.tensor().tensor.shape, std::vector<int64_t>{6});
    EXPECT_EQ(v.tensor().parameter, std::string(cls).find("Parameter") != std::string::npos);
  }
  EXPECT_EQ(error_of("ctorch._tensor\n_rebuild_from_type_v2\n(K\x01NNNtR.", o),
            "'torch._tensor._rebuild_from_type_v2' expects a function, got int");
}

TEST(Unpickler, RejectsBadTensorArguments) {
  Heap heap;
  UnpickleOptions o = with_storage(heap);
  EXPECT_EQ(error_of("ctorch._utils\n_rebuild_tensor_v2\n(NQK\x01K\x02\x85tR.", o),
            "'torch._utils._rebuild_tensor_v2' takes 6 to 7 arguments but the checkpoint passes 3");
  EXPECT_EQ(error_of("ctorch._utils\n_rebuild_tensor\n(K\x01K\x01K\x02\x85K\x01\x85tR.", o),
            "'torch._utils._rebuild_tensor' expects a storage as its first argument, got int");
  EXPECT_EQ(error_of("ctorch._utils\n_rebuild_tensor\n(NQK\x00K\x02\x85K\x01K\x01\x86tR."s, o),
            "'torch._utils._rebuild_tensor' gets 1 sizes but 2 strides");
  EXPECT_EQ(error_of("ctorch._utils\n_rebuild_tensor\n(NQN))tR.", o),
            "'torch._utils._rebuild_tensor' expects an int storage offset, got NoneType");
  EXPECT_EQ(error_of("ctorch._utils\n_rebuild_tensor\n(NQK\x00(X\x01\x00\x00\x00"
                     "at)tR."s,
                     o),
            "'torch._utils._rebuild_tensor' expects an int size, got str");
}

TEST(Unpickler, DeepNestingIsFreedWithoutRecursion) {
  // 200000 nested lists: building, printing and freeing them must not overflow the stack.
  std::string p;
  for (int i = 0; i < 200000; ++i) p += ']';
  for (int i = 0; i < 199999; ++i) p += 'a';
  p += '.';
  std::string r = load(p);
  EXPECT_EQ(r.substr(0, 4), "[[[[");
  EXPECT_NE(r.find("..."), std::string::npos);
}

}  // namespace
}  // namespace onnxify::weights
