#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/zip_members.h"
#include "tests/test_util.h"

namespace {

struct Member {
  std::string name, bytes;
  int method = 0;
  int64_t claimed = -1;  // the uncompressed size written into the directory; -1: bytes.size()
};

void put(std::string& out, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// A zip archive as APPNOTE.TXT lays it out, written here rather than by a zip library so that the
// tests can write what no library would (sizes that lie) and zip64 records for small members.
std::string build_zip(const std::vector<Member>& members, bool zip64 = false) {
  std::string out, cd;
  for (const Member& m : members) {
    const uint64_t offset = out.size();
    const uint64_t usize = m.claimed < 0 ? m.bytes.size() : static_cast<uint64_t>(m.claimed);
    put(out, 0x04034b50, 4);
    put(out, 20, 2), put(out, 0, 2), put(out, m.method, 2), put(out, 0, 4), put(out, 0, 4);
    put(out, m.bytes.size(), 4), put(out, usize, 4), put(out, m.name.size(), 2), put(out, 0, 2);
    out += m.name + m.bytes;
    std::string extra;
    if (zip64) put(extra, 0x0001, 2), put(extra, 24, 2), put(extra, usize, 8), put(extra, m.bytes.size(), 8), put(extra, offset, 8);
    const uint64_t sat = 0xffffffff;
    put(cd, 0x02014b50, 4);
    put(cd, 45, 2), put(cd, 45, 2), put(cd, 0, 2), put(cd, m.method, 2), put(cd, 0, 4), put(cd, 0, 4);
    put(cd, zip64 ? sat : m.bytes.size(), 4), put(cd, zip64 ? sat : usize, 4);
    put(cd, m.name.size(), 2), put(cd, extra.size(), 2), put(cd, 0, 2), put(cd, 0, 2), put(cd, 0, 2), put(cd, 0, 4);
    put(cd, zip64 ? sat : offset, 4);
    cd += m.name + extra;
  }
  const uint64_t cd_offset = out.size();
  out += cd;
  if (zip64) {
    const uint64_t record = out.size();
    put(out, 0x06064b50, 4), put(out, 44, 8), put(out, 45, 2), put(out, 45, 2), put(out, 0, 4), put(out, 0, 4);
    put(out, members.size(), 8), put(out, members.size(), 8), put(out, cd.size(), 8), put(out, cd_offset, 8);
    put(out, 0x07064b50, 4), put(out, 0, 4), put(out, record, 8), put(out, 1, 4);
  }
  put(out, 0x06054b50, 4), put(out, 0, 2), put(out, 0, 2);
  put(out, zip64 ? 0xffff : members.size(), 2), put(out, zip64 ? 0xffff : members.size(), 2);
  put(out, zip64 ? 0xffffffff : cd.size(), 4), put(out, zip64 ? 0xffffffff : cd_offset, 4), put(out, 0, 2);
  return out;
}

std::string error_of(const std::string& bytes) {
  try {
    synmt::check_zip_members(synmt::test::write_tmp("a.zip", bytes));
  } catch (const synmt::InputError& e) {
    return e.what();
  }
  return "";
}

const std::vector<Member> kTwo = {{"archive/data.pkl", "pickled bytes"}, {"archive/code/x.py", std::string(143, 'z'), 8, 345}};

}  // namespace

TEST(ZipMembers, ReadsPlainAndZip64Directories) {
  for (bool zip64 : {false, true}) {
    const std::string bytes = build_zip(kTwo, zip64);
    const auto members = synmt::check_zip_members(synmt::test::write_tmp("a.zip", bytes));
    ASSERT_EQ(members.size(), 2u) << zip64;
    EXPECT_EQ(members[0].name, "archive/data.pkl");
    EXPECT_EQ(bytes.substr(members[0].data_offset, members[0].compressed), "pickled bytes");
    EXPECT_EQ(members[1].method, 8);
    EXPECT_EQ(members[1].compressed, 143u);
    EXPECT_EQ(members[1].uncompressed, 345u);
    EXPECT_EQ(bytes.substr(members[1].data_offset, 143), std::string(143, 'z'));
  }
}

// The fuzzer's find: a deflated member claiming 4 GiB made LibTorch allocate 4 GiB for a small file.
TEST(ZipMembers, RefusesSizesNoMemberCanHold) {
  for (bool zip64 : {false, true}) {
    auto lying = kTwo;
    lying[1].claimed = zip64 ? 0x3fffffffcLL : 0xfffffffeLL;
    EXPECT_NE(error_of(build_zip(lying, zip64)).find("member 'archive/code/x.py' claims"), std::string::npos);
    lying[1].claimed = 143 * synmt::kMaxDeflateRatio;  // the most deflate can give: accepted
    EXPECT_EQ(error_of(build_zip(lying, zip64)), "");
    lying[1].claimed = 143 * synmt::kMaxDeflateRatio + 1;
    EXPECT_NE(error_of(build_zip(lying, zip64)).find("more than deflate can expand"), std::string::npos);
    if (!zip64) {  // the fuzzer's bytes: 0xffffffff means "see the zip64 field", and there is none
      lying[1].claimed = 0xffffffffLL;
      EXPECT_NE(error_of(build_zip(lying)).find("member 'archive/code/x.py': a saturated size"), std::string::npos);
    }
    auto stored = kTwo;
    stored[0].claimed = 14;
    EXPECT_NE(error_of(build_zip(stored, zip64)).find("is stored, yet claims 14 bytes in 13"), std::string::npos);
    auto bzip2 = kTwo;
    bzip2[0].method = 12;
    EXPECT_NE(error_of(build_zip(bzip2, zip64)).find("compression method 12"), std::string::npos);
  }
}

// Every cut and every single-byte overwrite of the directory and end records ends in an error that
// names the file, or in members that lie inside it: never a read past the end or a crash.
TEST(ZipMembers, EveryCutAndDirectoryDamageIsNamedOrInBounds) {
  for (bool zip64 : {false, true}) {
    const std::string bytes = build_zip(kTwo, zip64);
    for (std::size_t keep = 0; keep < bytes.size(); ++keep) {
      EXPECT_NE(error_of(bytes.substr(0, keep)).find("a.zip: "), std::string::npos) << keep;
    }
    const std::size_t directory = bytes.find(std::string("PK\x01\x02", 4));
    for (std::size_t i = directory; i < bytes.size(); ++i) {
      for (unsigned char v : {0x00, 0x7f, 0xff}) {
        std::string damaged = bytes;
        damaged[i] = static_cast<char>(v);
        const std::string path = synmt::test::write_tmp("d.zip", damaged);
        try {
          for (const auto& m : synmt::check_zip_members(path)) {
            EXPECT_LE(m.data_offset + m.compressed, damaged.size()) << i;
            EXPECT_TRUE(m.method == 8 ? m.uncompressed <= m.compressed * synmt::kMaxDeflateRatio
                                      : m.uncompressed == m.compressed) << i << " " << m.name << " " << m.method << " " << m.compressed << " " << m.uncompressed;
          }
        } catch (const synmt::InputError& e) {
          EXPECT_NE(std::string(e.what()).find("d.zip: "), std::string::npos) << i;
        }
      }
    }
  }
}

TEST(ZipMembers, ReadsStoredAndDeflatedBytes) {
  // zlib's raw deflate of "hello deflate\n" eight times (112 bytes)
  const std::string deflated("\xcb\x48\xcd\xc9\xc9\x57\x48\x49\x4d\xcb\x49\x2c\x49\xe5\xca\xa0\x39\x0f\x00", 19);
  std::string expected;
  for (int i = 0; i < 8; ++i) expected += "hello deflate\n";
  const std::string path = synmt::test::write_tmp("a.zip", build_zip({{"data.pkl", "pickled"}, {"code.py", deflated, 8, 112}}));
  const auto members = synmt::check_zip_members(path);
  EXPECT_EQ(synmt::read_zip_members(path, members), (std::vector<std::string>{"pickled", expected}));
  const std::string lying = synmt::test::write_tmp("b.zip", build_zip({{"code.py", deflated, 8, 113}}));
  try {
    synmt::read_zip_members(lying, synmt::check_zip_members(lying));
    ADD_FAILURE() << "read";
  } catch (const synmt::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("member 'code.py' does not inflate to the 113 bytes it claims"), std::string::npos);
  }
}
