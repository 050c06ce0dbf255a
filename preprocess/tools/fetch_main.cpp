// synmt-fetch: bring corpus files into the work tree from a local mirror, a download cache or their
// canonical URL; take members out of archives (tar, tgz, zip) and text out of SGML/XML test sets;
// verify checksums; check UTF-8 and parallel line counts.
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/line_reader.h"
#include "core/log.h"
#include "core/tool_main.h"
#include "preprocess/fetch_source.h"

namespace {

using synmt::fetch::Checksum;
using synmt::fetch::parse_checksum;

// A plain or gzip file (zlib detects which) through ConvertedOutput, as the --file form has always
// been read: its SHA-256 is that of the decompressed content.
void copy_decompressed(const std::string& from, const std::string& sha256, const std::string& output) {
  gzFile in = gzopen(from.c_str(), "rb");
  if (in == nullptr) throw synmt::InputError(from, 0, "cannot open");
  synmt::fetch::ConvertedOutput out(from, {}, sha256, output);
  char buf[1 << 16];
  int n;
  while ((n = gzread(in, buf, sizeof buf)) > 0) out.write(std::string_view(buf, static_cast<std::size_t>(n)));
  int err = 0;
  const std::string msg = gzerror(in, &err);
  gzclose(in);
  if (n < 0) throw synmt::InputError(from, 0, "corrupt compressed data: " + msg);
  out.commit();
}

std::string member_sha256(const std::string& text) {
  const Checksum c = parse_checksum(text);
  if (!c.empty() && c.algorithm != "sha256")
    throw synmt::ConfigError("the checksum of a member's text is a SHA-256, not '" + text + "'");
  return c.hex;
}

// Outputs OUT.0, OUT.1, ... of the pipeline are the k-th sources of a concatenated split: only
// files with the same numeric suffix are parallel (train.src.1 with train.tgt.1, not with
// train.src.0). Outputs without one form a single group.
std::string parallel_group(const std::string& output) {
  const std::size_t dot = output.rfind('.');
  if (dot == std::string::npos || dot + 1 == output.size()) return "";
  for (std::size_t i = dot + 1; i < output.size(); ++i)
    if (output[i] < '0' || output[i] > '9') return "";
  return output.substr(dot);
}

}  // namespace

namespace {
// The tool's options.
struct FetchArgs {
  synmt::fetch::SourceOptions opts;
  std::vector<std::vector<std::string>> files, archive_files, manual;
  std::vector<std::string> cache_dirs;
  bool allow_line_mismatch = false;
};

void declare(CLI::App& app, FetchArgs& a) {
  app.description(
      "Fetch corpus files: from MIRROR/RELPATH when the mirror has it, else from the download cache, else from "
      "URL; decompress or extract; verify checksums; check UTF-8 and equal line counts of parallel files.");
  app.add_option("--mirror", a.opts.mirror, "local mirror directory");
  app.add_option("--cache-dir", a.cache_dirs,
                 "keep downloads here as CACHE/RELPATH and reuse them (several members of one archive, several "
                 "jobs: one download); without it downloads are removed after the run. May be repeated with "
                 "the same directory (the pipeline gives it with each side's files)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--file", a.files,
                 "RELPATH URL SHA256 OUTPUT: a plain or gzip file; SHA256 of the decompressed content, '-' "
                 "skips (repeatable)")
      ->expected(4);
  app.add_option("--archive-file", a.archive_files,
                 "RELPATH URL ARCHIVE_CHECKSUM MEMBER FORMAT SHA256 OUTPUT: MEMBER of the archive RELPATH (tar, "
                 "tgz, zip; detected from the content), converted by FORMAT: text | sgml (the text of each <seg>) "
                 "| tags (WIT3 train.tags, as fairseq's prepare-iwslt14.sh) | field:N (the N-th ' ||| ' field; "
                 "negative from the end). ARCHIVE_CHECKSUM: sha256 hex, md5:HEX or '-'; SHA256: of the converted "
                 "text or '-' (repeatable)")
      ->expected(7);
  app.add_option("--manual", a.manual,
                 "RELPATH TEXT: RELPATH cannot be downloaded (licence, registration); errors about it say TEXT "
                 "(repeatable)")
      ->expected(2);
  app.add_flag("--allow-line-mismatch", a.allow_line_mismatch, "do not require equal line counts");
}

int run(FetchArgs& a) {
  if (a.files.empty() && a.archive_files.empty()) throw synmt::ConfigError("nothing to fetch: give --file or --archive-file");
  for (const auto& m : a.manual) a.opts.manual[m[0]] = m[1];
  for (const auto& c : a.cache_dirs)
    if (c != a.cache_dirs.front())
      throw synmt::ConfigError("--cache-dir given as both " + a.cache_dirs.front() + " and " + c);
  if (!a.cache_dirs.empty()) a.opts.cache_dir = a.cache_dirs.front();
  std::vector<std::string> outputs;
  for (const auto& f : a.files) outputs.push_back(f[3]);
  for (const auto& f : a.archive_files) outputs.push_back(f[6]);
  a.opts.scratch_dir = std::filesystem::path(outputs.front()).parent_path().string();
  if (a.opts.scratch_dir.empty()) a.opts.scratch_dir = ".";

  // formats and checksums are checked before anything is downloaded
  std::vector<Checksum> archive_sums;
  std::vector<synmt::fetch::MemberRequest> requests;
  for (const auto& f : a.archive_files) {
    archive_sums.push_back(parse_checksum(f[2]));
    requests.push_back({f[3], synmt::fetch::parse_format(f[4]), member_sha256(f[5]), f[6]});
  }
  std::vector<std::string> file_sums;
  for (const auto& f : a.files) file_sums.push_back(member_sha256(f[2]));

  synmt::fetch::Sources sources(a.opts);
  for (std::size_t i = 0; i < a.files.size(); ++i)
    copy_decompressed(sources.get(a.files[i][0], a.files[i][1], {}), file_sums[i], a.files[i][3]);
  // one pass over each archive for all of its members
  std::vector<std::pair<std::string, std::vector<synmt::fetch::MemberRequest>>> by_archive;
  for (std::size_t i = 0; i < a.archive_files.size(); ++i) {
    const std::string& path = sources.get(a.archive_files[i][0], a.archive_files[i][1], archive_sums[i]);
    auto it = std::find_if(by_archive.begin(), by_archive.end(), [&](const auto& p) { return p.first == path; });
    if (it == by_archive.end()) it = by_archive.insert(by_archive.end(), {path, {}});
    it->second.push_back(requests[i]);
  }
  for (const auto& [path, reqs] : by_archive) {
    synmt::log_info("fetch: " + std::to_string(reqs.size()) + " member(s) of " + path);
    synmt::fetch::extract_members(path, reqs);
  }

  std::map<std::string, std::pair<std::string, std::size_t>> first_of_group;  // group -> (output, lines)
  for (const auto& out : outputs) {
    synmt::LineReaderOptions ro;
    ro.strip_cr = false;
    synmt::LineReader reader(out, ro);  // UTF-8 check with line numbers
    std::string line;
    while (reader.next(line)) {}
    const std::size_t n = reader.line_number();
    auto [it, first] = first_of_group.emplace(parallel_group(out), std::make_pair(out, n));
    if (!first && n != it->second.second && !a.allow_line_mismatch)
      throw synmt::InputError(out, n,
                              "parallel files differ in length: " + std::to_string(n) + " lines vs " +
                                  std::to_string(it->second.second) + " in " + it->second.first);
  }
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  FetchArgs a;
  return synmt::run_tool(
      "synmt-fetch", argc, argv,
      [&](CLI::App& app) { declare(app, a); }, [&]() { return run(a); });
}
