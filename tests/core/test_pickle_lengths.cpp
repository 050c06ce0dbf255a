#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "core/pickle_lengths.h"

namespace {

// What Python's pickle writes for {'weight': [1, 300, 70000, 2.5, 'xy', b'z', None, True, (1, 2, 3),
// 10**30]}: protocol 2 (LibTorch's data.pkl) and protocol 5 (frames, memoize, short strings).
const std::string kProtocol2("\x80\x02\x7d\x71\x00\x58\x06\x00\x00\x00\x77\x65\x69\x67\x68\x74\x71\x01\x5d\x71\x02\x28\x4b\x01\x4d\x2c\x01\x4a\x70\x11\x01\x00\x47\x40\x04\x00\x00\x00\x00\x00\x00\x58\x02\x00\x00\x00\x78\x79\x71\x03\x63\x5f\x63\x6f\x64\x65\x63\x73\x0a\x65\x6e\x63\x6f\x64\x65\x0a\x71\x04\x58\x01\x00\x00\x00\x7a\x71\x05\x58\x06\x00\x00\x00\x6c\x61\x74\x69\x6e\x31\x71\x06\x86\x71\x07\x52\x71\x08\x4e\x88\x4b\x01\x4b\x02\x4b\x03\x87\x71\x09\x8a\x0d\x00\x00\x00\x40\xea\xed\x74\x46\xd0\x9c\x2c\x9f\x0c\x65\x73\x2e", 124);
const std::string kProtocol5("\x80\x05\x95\x46\x00\x00\x00\x00\x00\x00\x00\x7d\x94\x8c\x06\x77\x65\x69\x67\x68\x74\x94\x5d\x94\x28\x4b\x01\x4d\x2c\x01\x4a\x70\x11\x01\x00\x47\x40\x04\x00\x00\x00\x00\x00\x00\x8c\x02\x78\x79\x94\x43\x01\x7a\x94\x4e\x88\x4b\x01\x4b\x02\x4b\x03\x87\x94\x8a\x0d\x00\x00\x00\x40\xea\xed\x74\x46\xd0\x9c\x2c\x9f\x0c\x65\x73\x2e", 81);

std::string error_of(const std::string& pickle) {
  try {
    synmt::check_pickle_lengths(pickle, "ckpt.pt", "archive/data.pkl");
  } catch (const synmt::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(PickleLengths, AcceptsWhatPythonWrites) {
  EXPECT_EQ(error_of(kProtocol2), "");
  EXPECT_EQ(error_of(kProtocol5), "");
  EXPECT_EQ(error_of(kProtocol2 + "bytes after STOP are not read"), "");
}

// The fuzzer's find: a BINUNICODE length of 0xffffffff made LibTorch fill 4 GiB for a 68 KB file.
TEST(PickleLengths, RefusesALengthPastTheEnd) {
  std::string damaged = kProtocol2;
  ASSERT_EQ(damaged.substr(5, 5), std::string("X\x06\0\0\0", 5));
  damaged.replace(6, 4, "\xff\xff\xff\xff");
  EXPECT_EQ(error_of(damaged), "ckpt.pt: damaged pickle in member 'archive/data.pkl' at byte 5: a string of 4294967295 bytes where 114 remain");
  damaged.replace(6, 4, std::string("\x73\0\0\0", 4));  // 115: one byte more than there is
  EXPECT_NE(error_of(damaged).find("a string of 115 bytes where 114 remain"), std::string::npos);
  damaged.replace(6, 4, std::string("\x72\0\0\0", 4));  // 114: the string swallows STOP
  EXPECT_NE(error_of(damaged).find("ends before its STOP opcode"), std::string::npos);
  std::string frame = kProtocol5;
  ASSERT_EQ(static_cast<unsigned char>(frame[13]), 0x8c);  // SHORT_BINUNICODE 'weight'
  frame[14] = static_cast<char>(0xff);
  EXPECT_NE(error_of(frame).find("at byte 13: a string of 255 bytes"), std::string::npos);
}

// LibTorch resizes its memo table to the index a PUT names: 0x7fffffff asked for 32 GB.
TEST(PickleLengths, RefusesMemoIndicesNoPicklerWrites) {
  std::string damaged = kProtocol2;
  ASSERT_EQ(damaged.substr(3, 2), std::string("q\0", 2));  // BINPUT 0 after PROTO and EMPTY_DICT
  damaged[4] = 2;
  EXPECT_NE(error_of(damaged).find("at byte 3: memo index 2 after 2 opcodes"), std::string::npos);
  damaged.replace(3, 2, "r\xff\xff\xff\x7f");  // LONG_BINPUT, four bytes: the pickle shifts, the check comes first
  EXPECT_NE(error_of(damaged).find("at byte 3: memo index 2147483647 after 2 opcodes"), std::string::npos);
  EXPECT_EQ(error_of(std::string("(p0\np1\n.", 10)), "");
  EXPECT_NE(error_of(std::string("(p0\np99999999999999999999\n.", 29)).find("memo index"), std::string::npos);
}

TEST(PickleLengths, EveryCutAndUnknownOpcodeIsNamed) {
  for (const std::string& pickle : {kProtocol2, kProtocol5}) {
    for (std::size_t keep = 0; keep < pickle.size(); ++keep)
      EXPECT_NE(error_of(pickle.substr(0, keep)).find("ckpt.pt: damaged pickle in member 'archive/data.pkl'"), std::string::npos) << keep;
  }
  EXPECT_NE(error_of(std::string("\x80\x02\xff.", 4)).find("at byte 2: unknown opcode 0xff"), std::string::npos);
  EXPECT_NE(error_of("cbuiltins\nlen").find("a line argument without its newline"), std::string::npos);
}
