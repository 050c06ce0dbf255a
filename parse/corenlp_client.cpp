#ifdef SYNMT_WITH_CURL
#include <curl/curl.h>
#endif

#include <chrono>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/log.h"
#include "core/sha256.h"
#include "parse/backends.h"

namespace synmt::parse {
namespace {

struct HttpReply {
  long status = 0;
  std::string body;
  std::string error;  // transport error (connection refused, timeout); empty when a reply came
};

#ifdef SYNMT_WITH_CURL
extern "C" size_t append_body(char* data, size_t size, size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

std::string url_encode(CURL* curl, const std::string& s) {
  char* e = curl_easy_escape(curl, s.c_str(), static_cast<int>(s.size()));
  std::string out(e);
  curl_free(e);
  return out;
}

#endif

const nlohmann::json& corenlp_properties() {
  static const nlohmann::json p = {{"annotators", "tokenize,ssplit,pos,depparse"},
                                   {"tokenize.whitespace", "true"},
                                   {"ssplit.eolonly", "true"},
                                   {"outputFormat", "json"}};
  return p;
}

#ifdef SYNMT_WITH_CURL
HttpReply post(const std::string& base_url, const std::string& text, double timeout) {
  HttpReply reply;
  CURL* curl = curl_easy_init();
  if (!curl) throw std::runtime_error("libcurl could not be initialised");
  const std::string url = base_url + "/?properties=" + url_encode(curl, corenlp_properties().dump());
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_POST, 1L);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, text.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(text.size()));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &reply.body);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout * 1000));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(std::min(timeout, 30.0) * 1000));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  struct curl_slist* headers = curl_slist_append(nullptr, "Content-Type: text/plain; charset=utf-8");
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  CURLcode rc = curl_easy_perform(curl);
  if (rc != CURLE_OK) reply.error = curl_easy_strerror(rc);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply.status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return reply;
}
#else
// Builds without libcurl (-DSYNMT_WITH_CORENLP=OFF, e.g. GPU machines without its headers) have
// every other backend; asking for this one is a configuration error, not a silent fallback.
HttpReply post(const std::string&, const std::string&, double) {
  throw ConfigError("this build has no libcurl: the corenlp parser backend is unavailable (configure with "
                    "-DSYNMT_WITH_CORENLP=ON), use the builtin or conllu backend");
}
#endif

// One request with retries and exponential backoff on transport errors and 5xx replies.
std::string request_with_retries(const CoreNlpOptions& o, const std::string& text, std::size_t first_line) {
  double wait = o.backoff_seconds;
  std::string last;
  for (int attempt = 0; attempt <= o.retries; ++attempt) {
    if (attempt > 0) {
      log_warn("CoreNLP request for lines from " + std::to_string(first_line) + " failed (" + last + "); retry " +
               std::to_string(attempt) + "/" + std::to_string(o.retries) + " in " + std::to_string(wait) + " s");
      std::this_thread::sleep_for(std::chrono::duration<double>(wait));
      wait *= 2;
    }
    HttpReply r = post(o.url, text, o.timeout_seconds);
    if (!r.error.empty()) {
      last = r.error;
      continue;
    }
    if (r.status == 200) return r.body;
    last = "HTTP " + std::to_string(r.status) + (r.body.empty() ? "" : ": " + r.body.substr(0, 200));
    if (r.status < 500) break;  // a client error does not get better by retrying
  }
  throw std::runtime_error("CoreNLP server at " + o.url + " failed for the lines from " + std::to_string(first_line) + " (" + last +
                           "). Is it running? Start it with: java -mx4g -cp \"stanford-corenlp/*\" "
                           "edu.stanford.nlp.pipeline.StanfordCoreNLPServer -port 9000 -timeout 60000 (docs/parsing.md)");
}

}  // namespace

ParsedCorpus parse_with_corenlp(const std::string& corpus_path, const CoreNlpOptions& o) {
#ifdef SYNMT_WITH_CURL
  static const bool curl_ready = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
  if (!curl_ready) throw std::runtime_error("libcurl global initialisation failed");
#endif
  if (o.batch_lines < 1) throw ConfigError("--batch-lines must be >= 1");
  auto corpus = read_tokenised_corpus(corpus_path);
  ParsedCorpus p;
  for (std::size_t b = 0; b < corpus.size(); b += static_cast<std::size_t>(o.batch_lines)) {
    const std::size_t e = std::min(corpus.size(), b + static_cast<std::size_t>(o.batch_lines));
    std::string text;
    for (std::size_t i = b; i < e; ++i) {
      for (std::size_t k = 0; k < corpus[i].size(); ++k) text += (k ? " " : "") + corpus[i][k];
      text += "\n";
    }
    const std::string body = request_with_retries(o, text, b + 1);
    nlohmann::json reply;
    try {
      reply = nlohmann::json::parse(body);
    } catch (const nlohmann::json::exception& ex) {
      throw std::runtime_error("CoreNLP server at " + o.url + " sent a reply that is not JSON for the lines from " + std::to_string(b + 1));
    }
    const auto& sentences = reply.at("sentences");
    if (sentences.size() != e - b)
      throw InputError(corpus_path, b + 1, "CoreNLP returned " + std::to_string(sentences.size()) + " sentences for the " +
                                               std::to_string(e - b) + " lines from here: it re-split a line "
                                               "(one line must be one sentence; is ssplit.eolonly honoured?)");
    for (std::size_t i = b; i < e; ++i) {
      const auto& s = sentences[i - b];
      const auto& tokens = s.at("tokens");
      if (tokens.size() != corpus[i].size())
        throw InputError(corpus_path, i + 1, "CoreNLP returned " + std::to_string(tokens.size()) + " tokens for a line of " +
                                                 std::to_string(corpus[i].size()) + " (it re-tokenised or re-split the line)");
      std::vector<int32_t> heads(tokens.size(), -1);
      std::vector<std::string> labels(tokens.size()), tags(tokens.size());
      for (std::size_t k = 0; k < tokens.size(); ++k) tags[k] = tokens[k].at("pos").get<std::string>();
      for (const auto& d : s.at("basicDependencies")) {
        const int dep = d.at("dependent").get<int>(), gov = d.at("governor").get<int>();
        if (dep < 1 || dep > static_cast<int>(tokens.size()) || gov < 0 || gov > static_cast<int>(tokens.size()))
          throw InputError(corpus_path, i + 1, "CoreNLP dependency " + d.dump() + " is out of range");
        heads[static_cast<std::size_t>(dep - 1)] = gov;
        std::string label = d.at("dep").get<std::string>();
        labels[static_cast<std::size_t>(dep - 1)] = label == "ROOT" ? "root" : label;
      }
      for (std::size_t k = 0; k < heads.size(); ++k)
        if (heads[k] < 0) throw InputError(corpus_path, i + 1, "CoreNLP gave token " + std::to_string(k + 1) + " no head");
      p.add(heads, labels, tags);
    }
  }
  p.corpus_sha256 = sha256_file(corpus_path);
  p.parser_id = "corenlp:" + o.model_tag + ":" + sha256_hex(corenlp_properties().dump()).substr(0, 16);
  return p;
}

}  // namespace synmt::parse
