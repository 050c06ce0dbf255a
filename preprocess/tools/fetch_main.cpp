// synmt-fetch: bring corpus files into the work tree from a local mirror or their canonical URL,
// decompress, verify the sha256 of the decompressed content, check UTF-8 and parallel line counts.
#include <curl/curl.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>

#include "core/atomic_file.h"
#include "core/line_reader.h"
#include "core/log.h"
#include "core/sha256.h"
#include "core/tool_main.h"

namespace {

struct FileSpec {
  std::string relpath, url, sha256, output;
};

std::string download(const std::string& url, const std::string& into) {
  std::FILE* f = std::fopen(into.c_str(), "wb");
  if (f == nullptr) throw std::runtime_error("cannot create " + into);
  CURL* curl = curl_easy_init();
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, f);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 30L);
  CURLcode rc = curl_easy_perform(curl);
  curl_easy_cleanup(curl);
  std::fclose(f);
  if (rc != CURLE_OK) {
    std::remove(into.c_str());
    throw std::runtime_error("download of " + url + " failed: " + curl_easy_strerror(rc));
  }
  return into;
}

// Decompresses (gzip or plain, detected by zlib) into the atomic output, hashing what is written.
void copy_decompressed(const std::string& from, const FileSpec& spec) {
  gzFile in = gzopen(from.c_str(), "rb");
  if (in == nullptr) throw synmt::InputError(from, 0, "cannot open");
  synmt::AtomicFile out(spec.output);
  synmt::Sha256 hash;
  char buf[1 << 16];
  int n;
  while ((n = gzread(in, buf, sizeof buf)) > 0) {
    std::string_view chunk(buf, static_cast<std::size_t>(n));
    hash.update(chunk);
    out.write(chunk);
  }
  int err = 0;
  const char* msg = gzerror(in, &err);
  gzclose(in);
  if (n < 0) throw synmt::InputError(from, 0, std::string("corrupt compressed data: ") + msg);
  std::string digest = hash.hex_digest();
  if (!spec.sha256.empty() && digest != spec.sha256)
    throw synmt::InputError(from, 0, "sha256 of the decompressed content is " + digest + ", expected " + spec.sha256);
  out.commit();
}

}  // namespace

int main(int argc, char** argv) {
  std::string mirror;
  std::vector<std::vector<std::string>> files;
  bool allow_line_mismatch = false;
  return synmt::run_tool(
      "synmt-fetch", argc, argv,
      [&](CLI::App& app) {
        app.description(
            "Fetch corpus files: from MIRROR/RELPATH when the mirror has it, else from URL; decompress; "
            "verify sha256 (of the decompressed content; '-' skips); check UTF-8 and equal line counts.");
        app.add_option("--mirror", mirror, "local mirror directory (e.g. ../shared/data's parent)");
        app.add_option("--file", files, "RELPATH URL SHA256 OUTPUT (repeatable; the files of one split are parallel)")
            ->expected(4)
            ->required();
        app.add_flag("--allow-line-mismatch", allow_line_mismatch, "do not require equal line counts");
      },
      [&]() {
        std::vector<std::size_t> line_counts;
        for (const auto& f : files) {
          FileSpec spec{f[0], f[1], f[2] == "-" ? "" : f[2], f[3]};
          std::string local = mirror.empty() ? "" : mirror + "/" + spec.relpath;
          std::string source;
          if (!local.empty() && std::filesystem::exists(local)) {
            source = local;
            synmt::log_info("fetch: " + spec.relpath + " from mirror " + local);
          } else {
            synmt::log_info("fetch: " + spec.relpath + " from " + spec.url);
            source = download(spec.url, spec.output + ".download");
          }
          copy_decompressed(source, spec);
          if (source != local) std::remove(source.c_str());
          synmt::LineReaderOptions ro;
          ro.strip_cr = false;
          synmt::LineReader reader(spec.output, ro);  // UTF-8 check with line numbers
          std::string line;
          while (reader.next(line)) {}
          line_counts.push_back(reader.line_number());
        }
        for (std::size_t i = 1; i < line_counts.size() && !allow_line_mismatch; ++i)
          if (line_counts[i] != line_counts[0])
            throw synmt::InputError(files[i][3], line_counts[i],
                                    "parallel files differ in length: " + std::to_string(line_counts[i]) + " lines vs " +
                                        std::to_string(line_counts[0]) + " in " + files[0][3]);
        return 0;
      });
}
