// What synmt-fetch reads from a corpora list and a download: the checksum field ("-", SHA-256
// hex, "md5:HEX"), the format field (text | sgml | tags | field:N), the conversion of a member's
// bytes by that format, and an archive (tar, tgz, zip, ...) searched for a member. The input is
// "<checksum>\n<format>\n<bytes>"; the bytes are converted as a plain member and read as an archive.
#include <string>

#include "preprocess/fetch_archive.h"
#include "preprocess/fetch_text.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const auto first = input.find('\n');
  const auto second = first == std::string::npos ? std::string::npos : input.find('\n', first + 1);
  if (second == std::string::npos) return 0;
  const std::string checksum_text = input.substr(0, first), format_text = input.substr(first + 1, second - first - 1);
  const std::string body = input.substr(second + 1);
  fuzz::expect_clear_errors([&] { fetch::parse_checksum(checksum_text); });
  fetch::FormatSpec format;
  try {
    format = fetch::parse_format(format_text);
  } catch (const ConfigError&) {
    format = fetch::parse_format("text");
  } catch (const InputError&) {
    format = fetch::parse_format("text");
  }
  const std::string out = fuzz::scratch_path("member.out");
  fuzz::expect_clear_errors([&] {
    fetch::ConvertedOutput converted("input", format, "", out);
    converted.write(body);
    converted.commit();
  });
  const std::string archive = fuzz::write_input("archive.bin", reinterpret_cast<const uint8_t*>(body.data()), body.size());
  fuzz::expect_clear_errors([&] { fetch::extract_members(archive, {{"a/b.txt", format, "", out}}); });
  return 0;
}
