#pragma once
// Where a corpus file's bytes come from: the local mirror when it has the file, else a download
// cache, else its URL. A file that cannot be downloaded (licence, registration) carries a manual
// instruction that every error about it repeats.
#include <map>
#include <string>
#include <vector>

#include "preprocess/fetch_archive.h"

namespace synmt::fetch {

struct SourceOptions {
  std::string mirror;     // "" = no mirror
  std::string cache_dir;  // "" = downloads are temporary (removed when the Sources object goes)
  std::string scratch_dir = ".";  // temporary downloads without a cache
  std::map<std::string, std::string> manual;  // relpath -> how to obtain the file by hand
};

class Sources {
 public:
  explicit Sources(SourceOptions options) : options_(std::move(options)) {}
  ~Sources();
  Sources(const Sources&) = delete;
  Sources& operator=(const Sources&) = delete;

  // A local path with RELPATH's bytes, checked against `checksum` of those bytes (once per relpath:
  // the members of one archive are read from one download). `url` "" or "-": none.
  const std::string& get(const std::string& relpath, const std::string& url, const Checksum& checksum);

 private:
  std::string obtain(const std::string& relpath, const std::string& url, const Checksum& checksum);
  std::string download_cached(const std::string& relpath, const std::string& url, const Checksum& checksum);
  std::string manual_hint(const std::string& relpath) const;

  SourceOptions options_;
  std::map<std::string, std::string> resolved_;
  std::vector<std::string> temporary_;
};

// Downloads `url` into `into` (created or truncated), computing `checksum.algorithm`'s digest on the
// way; a failed or mismatching download leaves no file and throws.
void download(const std::string& url, const std::string& into, const Checksum& checksum);

}  // namespace synmt::fetch
