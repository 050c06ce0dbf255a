#include "preprocess/fetch_source.h"

#include <curl/curl.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "core/error.h"
#include "core/log.h"

namespace synmt::fetch {

namespace {

struct DownloadSink {
  std::FILE* file;
  Digest* digest;
};

std::size_t write_chunk(char* data, std::size_t size, std::size_t count, void* user) {
  auto* sink = static_cast<DownloadSink*>(user);
  const std::size_t bytes = size * count;
  if (std::fwrite(data, 1, bytes, sink->file) != bytes) return 0;  // curl reports a write error
  if (sink->digest != nullptr) sink->digest->update(std::string_view(data, bytes));
  return bytes;
}

// An exclusive lock on a cache entry: concurrent jobs that need the same archive (the valid and
// test splits of one pair) wait for one download instead of fetching it twice.
class FileLock {
 public:
  explicit FileLock(const std::string& path) : fd_(::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644)) {
    if (fd_ < 0 || ::flock(fd_, LOCK_EX) != 0) throw InputError(path, 0, "cannot lock the download cache entry");
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

}  // namespace

void download(const std::string& url, const std::string& into, const Checksum& checksum) {
  std::FILE* f = std::fopen(into.c_str(), "wb");
  if (f == nullptr) throw InputError(into, 0, "cannot create");
  std::unique_ptr<Digest> digest = checksum.empty() ? nullptr : std::make_unique<Digest>(checksum.algorithm);
  DownloadSink sink{f, digest.get()};
  CURL* curl = curl_easy_init();
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, write_chunk);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 30L);
  // a stalled server fails the job after a minute instead of holding it until the cluster's limit
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1000L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, 60L);
  const CURLcode rc = curl_easy_perform(curl);
  curl_easy_cleanup(curl);
  const bool closed = std::fclose(f) == 0;
  if (rc != CURLE_OK || !closed) {
    std::remove(into.c_str());
    throw InputError(url, 0, std::string("download failed: ") + (rc != CURLE_OK ? curl_easy_strerror(rc) : "write error"));
  }
  if (digest) {
    const std::string got = digest->hex();
    if (got != checksum.hex) {
      std::remove(into.c_str());
      throw InputError(url, 0, checksum.algorithm + " of the download is " + got + ", expected " + checksum.hex);
    }
  }
}

Sources::~Sources() {
  for (const auto& t : temporary_) std::remove(t.c_str());
}

const std::string& Sources::get(const std::string& relpath, const std::string& url, const Checksum& checksum) {
  auto it = resolved_.find(relpath);
  if (it == resolved_.end()) it = resolved_.emplace(relpath, obtain(relpath, url, checksum)).first;
  return it->second;
}

std::string Sources::manual_hint(const std::string& relpath) const {
  auto it = options_.manual.find(relpath);
  if (it == options_.manual.end()) return "";
  return "; it needs a manual download: " + it->second;
}

std::string Sources::obtain(const std::string& relpath, const std::string& url, const Checksum& checksum) {
  const std::string local = options_.mirror.empty() ? "" : options_.mirror + "/" + relpath;
  if (!local.empty() && std::filesystem::exists(local)) {
    log_info("fetch: " + relpath + " from mirror " + local);
    verify_file(local, checksum);
    return local;
  }
  const std::string place = local.empty() ? "no --mirror given" : "place it at " + local;
  if (url.empty() || url == "-") {
    auto it = options_.manual.find(relpath);
    if (it != options_.manual.end()) throw InputError(relpath, 0, "needs a manual download: " + it->second + " (" + place + ")");
    throw InputError(relpath, 0, "not in the mirror and no download URL (" + place + ")");
  }
  try {
    if (!options_.cache_dir.empty()) return download_cached(relpath, url, checksum);
    const std::string tmp = options_.scratch_dir + "/.synmt-fetch." + std::to_string(::getpid()) + "." +
                            std::to_string(temporary_.size()) + "." + std::filesystem::path(relpath).filename().string();
    log_info("fetch: " + relpath + " from " + url);
    temporary_.push_back(tmp);
    download(url, tmp, checksum);
    return tmp;
  } catch (const InputError& e) {
    const std::string hint = manual_hint(relpath);
    if (hint.empty()) throw;
    throw std::runtime_error(std::string(e.what()) + hint + " (" + place + ")");
  }
}

std::string Sources::download_cached(const std::string& relpath, const std::string& url, const Checksum& checksum) {
  const std::string path = options_.cache_dir + "/" + relpath;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  FileLock lock(path + ".lock");
  if (std::filesystem::exists(path)) {
    log_info("fetch: " + relpath + " from the download cache " + path);
    try {
      verify_file(path, checksum);
    } catch (const InputError& e) {
      throw std::runtime_error(std::string(e.what()) + "; delete the cached copy to download it again");
    }
    return path;
  }
  log_info("fetch: " + relpath + " from " + url + " into the download cache");
  const std::string part = path + ".part." + std::to_string(::getpid());
  download(url, part, checksum);
  std::filesystem::rename(part, path);  // only complete, verified downloads appear in the cache
  return path;
}

}  // namespace synmt::fetch
