// Checkpoint: format detection, safetensors, key selection, and the exact messages (the spec of
// onnxify's own errors). Files made by torch are checked by oracle_test.py and bad_input_test.py.
#include <gtest/gtest.h>

#include "builders.h"
#include "weights/weights.h"

namespace onnxify::weights {
namespace {

using namespace std::string_literals;

using testing::bytes_of;
using testing::safetensors_file;
using testing::zip_file;

std::string error_of(const std::string& file, const std::string& key = "") {
  try {
    Checkpoint::from_bytes(bytes_of(file), "ckpt.pt").select(key);
  } catch (const Diagnostic& d) {
    return d.render();
  }
  return "(no error)\n";
}

std::string names(const StateDict& sd) {
  std::string s;
  for (const auto& t : sd.tensors) s += (s.empty() ? "" : " ") + t.name;
  return s;
}

// A safetensors file with float32 tensors of the given names, 2 elements each.
std::string st_file(const std::vector<std::string>& tensor_names) {
  std::string header = "{\"__metadata__\":{\"format\":\"pt\"}";
  size_t off = 0;
  for (const auto& n : tensor_names) {
    header += ",\"" + n + "\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[" + std::to_string(off) +
              "," + std::to_string(off + 8) + "]}";
    off += 8;
  }
  return safetensors_file(header + "}", std::string(off, '\x01'));
}

TEST(Checkpoint, Safetensors) {
  Checkpoint c = Checkpoint::from_bytes(
      bytes_of(safetensors_file("{\"b\":{\"dtype\":\"BF16\",\"shape\":[2,0],\"data_offsets\":[8,8]},"
                                "\"a\":{\"dtype\":\"I64\",\"shape\":[],\"data_offsets\":[0,8]}}",
                                "12345678")),
      "m.safetensors");
  EXPECT_EQ(c.format(), Format::Safetensors);
  StateDict sd = c.select();
  ASSERT_EQ(names(sd), "a b");  // in data order
  EXPECT_EQ(sd.find("a")->dtype, DType::Int64);
  EXPECT_EQ(sd.find("a")->storage.view(), "12345678");
  EXPECT_EQ(sd.find("b")->shape, (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(sd.find("b")->strides, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(sd.find("c"), nullptr);
}

TEST(Checkpoint, SafetensorsErrors) {
  auto st = [](const std::string& h, const std::string& d = "") { return error_of(safetensors_file(h, d)); };
  EXPECT_EQ(st("{\"a\":{\"dtype\":\"F4\",\"shape\":[1],\"data_offsets\":[0,1]}}", "x"),
            "ckpt.pt: error: safetensors tensor 'a' has unknown dtype 'F4'\n");
  EXPECT_EQ(
      st("{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}", "12345678"),
      "ckpt.pt: error: safetensors tensor 'a' (float32, 3 elements) should span 12 bytes but its offsets are "
      "[0, 8]\n");
  EXPECT_EQ(st("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", "1234"),
            "ckpt.pt: error: safetensors tensor 'a' ends at byte 8 of a 4-byte data buffer (is the file "
            "truncated?)\n");
  EXPECT_EQ(st("{\"a\":{\"dtype\":\"F32\",\"shape\":[-2],\"data_offsets\":[0,8]}}", "12345678"),
            "ckpt.pt: error: safetensors tensor 'a' has a dimension that is not a non-negative integer\n");
  EXPECT_EQ(st("{\"a\":{\"dtype\":\"U8\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,8]}}"),
            "ckpt.pt: error: safetensors tensor 'a' has more elements than fit in 64 bits\n");
  EXPECT_EQ(st("{\"a\":{\"dtype\":\"U8\",\"shape\":[1]}}"),
            "ckpt.pt: error: safetensors tensor 'a' needs dtype, shape and data_offsets\n");
  EXPECT_EQ(st("{\"a\":[1,2]}"),
            "ckpt.pt: error: safetensors tensor 'a' needs dtype, shape and data_offsets\n");
  EXPECT_EQ(st("{\"a\": 1"),
            "ckpt.pt: error: safetensors header is not valid JSON: parse error at line 1, column 8: syntax "
            "error while "
            "parsing object - unexpected end of input; expected '}'\n");
  EXPECT_EQ(st("{\"__metadata__\": 3}"), "ckpt.pt: error: safetensors __metadata__ is not a JSON object\n");
  EXPECT_EQ(
      error_of("\xff\xff\xff\xff\x00\x00\x00\x00{}"s),
      "ckpt.pt: error: safetensors header claims 4294967295 bytes but the file has 2 after the length (is it "
      "truncated?)\n");
  EXPECT_EQ(st("{}"), "ckpt.pt: error: the checkpoint holds no tensors\n");
}

TEST(Checkpoint, NotACheckpoint) {
  EXPECT_EQ(error_of(""), "ckpt.pt: error: the file is empty: not a checkpoint\n");
  EXPECT_EQ(error_of("\x7f"
                     "ELF\x02\x01\x01\x00\x00\x00"s),
            "ckpt.pt: error: not a PyTorch checkpoint, safetensors, Keras weights file or TensorFlow checkpoint index (it "
            "starts with bytes 7f 45 4c 46 02 01 01 00; expected a zip archive, a torch.save pickle, a safetensors "
            "header, an HDF5 file or a checkpoint table)\n");
  EXPECT_EQ(
      error_of("\x80\x02K\x01."),
      "ckpt.pt: error: a pickle without torch's magic number: not a checkpoint written by torch.save\n");
  EXPECT_EQ(
      error_of(zip_file({{"a.txt", "hi"}})),
      "ckpt.pt: error: a zip archive without data.pkl (1 entries): not a checkpoint written by torch.save\n");
  EXPECT_EQ(error_of(zip_file({{"m/data.pkl", "N."}, {"m/constants.pkl", "N."}})),
            "ckpt.pt: error: a TorchScript archive (torch.jit.save), not a torch.save checkpoint; save "
            "model.state_dict() with torch.save\n");
  EXPECT_EQ(error_of(zip_file({{"m/data.pkl", "N."}, {"m/byteorder", "big"}})),
            "ckpt.pt: error: the checkpoint's byte order is b'big'; onnxify reads little-endian data\n");
}

TEST(Checkpoint, ZipStorageRecords) {
  // A data.pkl whose persistent id names a storage record that is missing, or too short.
  std::string pkl =
      "ctorch._utils\n_rebuild_tensor_v2\n((X\x07\x00\x00\x00storagectorch\nFloatStorage\nX\x01\x00\x00\x00"
      "0X\x03"
      "\x00\x00\x00"
      "cpuK\x04tQK\x00K\x04\x85K\x01\x85\x89NtR."s;
  EXPECT_EQ(error_of(zip_file({{"m/data.pkl", pkl}})),
            "ckpt.pt: error: storage record 'm/data/0' is missing from the archive\n");
  EXPECT_EQ(
      error_of(zip_file({{"m/data.pkl", pkl}, {"m/data/0", "12345678"}})),
      "ckpt.pt: error: storage record 'm/data/0' has 8 bytes but the pickle declares 4 float32 elements (16 "
      "bytes)\n");
  Checkpoint c = Checkpoint::from_bytes(
      bytes_of(zip_file({{"m/data.pkl", pkl}, {"m/data/0", "0123456789abcdef"}})), "x.pt");
  StateDict sd = c.select();
  ASSERT_EQ(sd.tensors.size(), 1u);
  EXPECT_EQ(sd.tensors[0].name, "tensor");
  EXPECT_EQ(sd.tensors[0].tensor.contiguous_bytes().view(), "0123456789abcdef");
  // The same tensor reaching past its storage.
  std::string past = pkl;
  past.replace(past.find("K\x04\x85"), 3, "K\x05\x85");
  EXPECT_EQ(error_of(zip_file({{"m/data.pkl", past}, {"m/data/0", "0123456789abcdef"}})),
            "ckpt.pt: error: a float32 tensor of shape [5] in storage '0' needs 20 bytes of storage but its "
            "storage has "
            "16\n");
}

TEST(Checkpoint, SelectByKey) {
  Checkpoint c =
      Checkpoint::from_bytes(bytes_of(st_file({"enc.layer.w", "enc.layer.b", "dec.w", "model.ema"})), "s");
  EXPECT_EQ(names(c.select("enc")), "layer.w layer.b");  // prefix of qualified names
  EXPECT_EQ(names(c.select("enc.layer")), "w b");
  EXPECT_EQ(names(c.select("model.ema")), "model.ema");  // a key with a dot in it, a bare tensor
  EXPECT_EQ(names(c.select(".")), "enc.layer.w enc.layer.b dec.w model.ema");
  EXPECT_EQ(error_of(st_file({"enc.w", "dec.w"}), "dex.w"),
            "ckpt.pt: error: --key 'dex.w': the checkpoint has no key 'dex.w' (did you mean 'dec.w'?); its "
            "keys are "
            "'enc.w', 'dec.w'\n");
  EXPECT_EQ(error_of(st_file({"enc.w"}), "enc.w.x"),
            "ckpt.pt: error: --key 'enc.w.x': 'enc.w' is a tensor, which has no key 'x'\n");
}

}  // namespace
}  // namespace onnxify::weights
