#include "preprocess/fetch_archive.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "core/error.h"

namespace synmt::fetch {

namespace {

// libarchive's message for the last error; it may have none (NULL: a damaged zip entry's data, found
// by tests/fuzz/fuzz_fetch, where appending it to a std::string crashed)
std::string error_text(archive* a) {
  const char* text = archive_error_string(a);
  return text != nullptr ? text : "libarchive gave no detail";
}

bool is_hex(const std::string& s, std::size_t n) {
  return s.size() == n && std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::string normalise_member(std::string name) {
  while (name.rfind("./", 0) == 0) name.erase(0, 2);
  return name;
}

std::size_t common_prefix(const std::string& a, const std::string& b) {
  std::size_t k = 0;
  while (k < a.size() && k < b.size() && a[k] == b[k]) ++k;
  return k;
}

// "no member X": the archive's members whose names share the longest prefix with X.
std::string missing_member_message(const std::string& wanted, const std::vector<std::string>& names) {
  std::vector<std::string> nearest(names);
  std::stable_sort(nearest.begin(), nearest.end(), [&](const std::string& a, const std::string& b) {
    return common_prefix(a, wanted) > common_prefix(b, wanted);
  });
  nearest.resize(std::min<std::size_t>(nearest.size(), 8));
  std::string msg = "no member '" + wanted + "' among its " + std::to_string(names.size()) + " files";
  if (!nearest.empty()) {
    msg += "; nearest names:";
    for (const auto& n : nearest) msg += " " + n;
  }
  return msg;
}

}  // namespace

Checksum parse_checksum(const std::string& text) {
  if (text.empty() || text == "-") return {};
  if (text.rfind("md5:", 0) == 0 && is_hex(text.substr(4), 32)) return {"md5", text.substr(4)};
  if (is_hex(text, 64)) return {"sha256", text};
  throw ConfigError("checksum '" + text + "' is neither 64 lower-case hex digits (SHA-256), md5:<32 hex digits> nor '-'");
}

void verify_file(const std::string& path, const Checksum& expected) {
  if (expected.empty()) return;
  const std::string got = file_digest(path, expected.algorithm);
  if (got != expected.hex)
    throw InputError(path, 0, expected.algorithm + " of the file is " + got + ", expected " + expected.hex);
}

ConvertedOutput::ConvertedOutput(std::string source, FormatSpec format, std::string sha256, const std::string& output)
    : source_(std::move(source)),
      sha256_(std::move(sha256)),
      format_(format),
      out_(output),
      extractor_(format, source_, [this](std::string_view s) {
        hash_.update(s);
        out_.write(s);
      }) {}

void ConvertedOutput::commit() {
  extractor_.finish();
  const std::string digest = hash_.hex_digest();
  if (!sha256_.empty() && digest != sha256_)
    throw InputError(source_, 0,
                     std::string("sha256 of the ") + (format_.kind == Format::text ? "decompressed content" : "extracted text") +
                         " is " + digest + ", expected " + sha256_);
  out_.commit();
}

void extract_members(const std::string& path, const std::vector<MemberRequest>& requests) {
  std::unique_ptr<archive, decltype(&archive_read_free)> a(archive_read_new(), archive_read_free);
  archive_read_support_filter_all(a.get());
  archive_read_support_format_all(a.get());
  if (archive_read_open_filename(a.get(), path.c_str(), 1 << 16) != ARCHIVE_OK)
    throw InputError(path, 0, std::string("cannot read as an archive: ") + error_text(a.get()));
  std::multimap<std::string, const MemberRequest*> wanted;
  for (const auto& r : requests) wanted.emplace(normalise_member(r.member), &r);
  std::set<std::string> pending;
  for (const auto& [name, r] : wanted) pending.insert(name);

  std::vector<std::string> names;  // every file seen, for the error about a missing member
  std::string buf(1 << 16, '\0');
  archive_entry* entry = nullptr;
  int rc = ARCHIVE_OK;
  // ARCHIVE_WARN (e.g. an unknown extended header) still yields a usable entry
  while (!pending.empty() && ((rc = archive_read_next_header(a.get(), &entry)) == ARCHIVE_OK || rc == ARCHIVE_WARN)) {
    if (archive_entry_filetype(entry) != AE_IFREG) continue;
    const std::string name = normalise_member(archive_entry_pathname(entry) ? archive_entry_pathname(entry) : "");
    names.push_back(name);
    if (pending.erase(name) == 0) continue;  // not wanted, or a later duplicate: skipped by the next header
    std::vector<std::unique_ptr<ConvertedOutput>> outs;
    auto [b, e] = wanted.equal_range(name);
    for (auto it = b; it != e; ++it)
      outs.push_back(std::make_unique<ConvertedOutput>(member_name(path, name), it->second->format, it->second->sha256,
                                                       it->second->output));
    for (;;) {
      const la_ssize_t n = archive_read_data(a.get(), buf.data(), buf.size());
      if (n < 0)
        throw InputError(member_name(path, name), 0, std::string("corrupt archive data: ") + error_text(a.get()));
      if (n == 0) break;
      for (auto& o : outs) o->write(std::string_view(buf.data(), static_cast<std::size_t>(n)));
    }
    for (auto& o : outs) o->commit();
  }
  if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN && rc != ARCHIVE_EOF)
    throw InputError(path, 0, std::string("corrupt archive: ") + error_text(a.get()));
  if (!pending.empty()) throw InputError(path, 0, missing_member_message(*pending.begin(), names));
}

}  // namespace synmt::fetch
