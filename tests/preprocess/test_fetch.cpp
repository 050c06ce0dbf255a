// synmt-fetch's formats, archives and sources. Fixture archives are written here with libarchive
// (tar.gz and zip), downloads go through file:// URLs, so nothing needs a network.
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/sha256.h"
#include "preprocess/fetch_source.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using namespace synmt::fetch;
using synmt::test::tmp_path;
using synmt::test::write_tmp;

namespace {

std::string convert(const std::string& format, const std::string& input, std::size_t chunk = 1 << 20) {
  std::string out;
  TextExtractor x(parse_format(format), "in.sgm", [&](std::string_view s) { out.append(s); });
  for (std::size_t i = 0; i < input.size(); i += chunk) x.feed(std::string_view(input).substr(i, chunk));
  x.finish();
  return out;
}

// The InputError message of converting `input`, "" if none.
std::string convert_error(const std::string& format, const std::string& input) {
  try {
    convert(format, input);
  } catch (const synmt::InputError& e) {
    return e.what();
  }
  return "";
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The test case's scratch folder, emptied: a rerun must not find the last run's mirror and cache.
std::string fresh_dir() {
  const std::string root = tmp_path("");
  fs::remove_all(root);
  fs::create_directories(root);
  return root;
}

void write_archive(const std::string& path, bool zip, const std::vector<std::pair<std::string, std::string>>& members) {
  archive* a = archive_write_new();
  if (zip) {
    archive_write_set_format_zip(a);
  } else {
    archive_write_set_format_pax_restricted(a);
    archive_write_add_filter_gzip(a);
  }
  ASSERT_EQ(archive_write_open_filename(a, path.c_str()), ARCHIVE_OK);
  for (const auto& [name, data] : members) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, name.c_str());
    archive_entry_set_size(e, static_cast<la_int64_t>(data.size()));
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_write_header(a, e);
    archive_write_data(a, data.data(), data.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
}

const char* kSgm =
    "<srcset setid=\"newstest2015\" srclang=\"any\">\n"
    "<doc sysid=\"ref\" docid=\"1\" genre=\"news\" origlang=\"de\">\n"
    "<p>\n"
    "<seg id=\"1\">  Erster   Satz.\t</seg>\n"
    "<SEG id=\"2\">AT&T &amp; Co &lt;b&gt; &#228;&#xE4; &quot;x&quot;</SEG>\n"
    "<seg id=\"3\">über\n"
    "  zwei Zeilen</seg><seg id=\"4\">vier</seg>\n"
    "</p>\n</doc>\n</srcset>\n";

}  // namespace

TEST(FetchText, SgmlSegmentsInOrderCollapsedAndUnescaped) {
  const std::string want = "Erster Satz.\nAT&T & Co <b> ää \"x\"\nüber zwei Zeilen\nvier\n";
  EXPECT_EQ(convert("sgml", kSgm), want);
  EXPECT_EQ(convert("sgml", kSgm, 1), want);  // chunk boundaries anywhere, even inside a tag
  EXPECT_EQ(convert("sgml", "<seg id=1>a</seg>"), "a\n");  // no final newline
  EXPECT_EQ(convert("sgml", "<segment>x</segment>\n<seg>y</seg>\n"), "y\n");
}

TEST(FetchText, SgmlErrorsNameTheLine) {
  EXPECT_NE(convert_error("sgml", "<doc>\n<seg id=\"1\">open\nstill\n</doc>\n").find("in.sgm:2: <seg> is never closed"),
            std::string::npos);
  EXPECT_NE(convert_error("sgml", "<seg>a</seg>\n<seg>b <seg>c</seg>\n").find("in.sgm:2: <seg> inside the <seg> opened on line 2"),
            std::string::npos);
  EXPECT_NE(convert_error("sgml", "<seg>a</seg>\nb</seg>\n").find("in.sgm:2: </seg> without an opening <seg>"),
            std::string::npos);
  EXPECT_NE(convert_error("sgml", "<seg id=\"1\"\n>x</seg>\n").find("in.sgm:1: <seg tag is not closed"), std::string::npos);
  EXPECT_NE(convert_error("sgml", "<seg>x &#0; y</seg>\n").find("in.sgm:1: invalid character reference '&#0;'"),
            std::string::npos);
  EXPECT_NE(convert_error("sgml", "plain text\n").find("in.sgm: no <seg> element"), std::string::npos);
}

TEST(FetchText, WitTagsAsFairseqPreparesThem) {
  const std::string in =
      "<url>http://www.ted.com/talks/x.html</url>\n"
      "<keywords>talks, science</keywords>\n"
      "<talkid>1</talkid>\n"
      "<title>Ein Titel</title>\n"
      "<description>Eine Beschreibung.</description>\n"
      "Erster Satz.\n"
      "Zweiter Satz.\n";
  EXPECT_EQ(convert("tags", in), "Ein Titel\nEine Beschreibung.\nErster Satz.\nZweiter Satz.\n");
}

TEST(FetchText, AspecFields) {
  const std::string train = "0.9 ||| A-1 ||| 1 ||| 日本語 ||| English\n0.8 ||| A-1 ||| 2 ||| 二 ||| two\n";
  const std::string dev = "1 ||| A-2 ||| 開発 ||| dev\n";
  EXPECT_EQ(convert("field:-2", train), "日本語\n二\n");
  EXPECT_EQ(convert("field:-1", dev), "dev\n");
  EXPECT_EQ(convert("field:3", train), "日本語\n二\n");
  EXPECT_NE(convert_error("field:4", dev + "only ||| two\n").find("in.sgm:1: has 4 ' ||| '-separated field(s)"),
            std::string::npos);
  EXPECT_THROW(parse_format("field:x"), synmt::ConfigError);
  EXPECT_THROW(parse_format("xml"), synmt::ConfigError);
}

TEST(FetchText, Checksums) {
  EXPECT_TRUE(parse_checksum("-").empty());
  EXPECT_TRUE(parse_checksum("").empty());
  EXPECT_EQ(parse_checksum("md5:86a1724c276004aa25455ae2a04cef26").algorithm, "md5");
  EXPECT_EQ(parse_checksum(std::string(64, 'a')).algorithm, "sha256");
  EXPECT_THROW(parse_checksum("0000"), synmt::ConfigError);
  EXPECT_THROW(parse_checksum(std::string(64, 'A')), synmt::ConfigError);
  Digest md5("md5");
  md5.update("abc");
  EXPECT_EQ(md5.hex(), "900150983cd24fb0d6963f7d28e17f72");
}

TEST(FetchArchive, TarGzMembersInOnePass) {
  const std::string tgz = tmp_path("dev.tgz");
  write_archive(tgz, false, {{"./dev/readme.txt", "x\n"}, {"./dev/newstest2015-deen-src.de.sgm", kSgm}, {"dev/plain.en", "a\nb\n"}});
  const std::string o1 = tmp_path("o1"), o2 = tmp_path("o2"), o3 = tmp_path("o3");
  extract_members(tgz, {{"dev/newstest2015-deen-src.de.sgm", parse_format("sgml"), "", o1},
                        {"dev/plain.en", {}, synmt::sha256_hex("a\nb\n"), o2},
                        {"dev/newstest2015-deen-src.de.sgm", parse_format("sgml"), "", o3}});
  EXPECT_EQ(read(o1), "Erster Satz.\nAT&T & Co <b> ää \"x\"\nüber zwei Zeilen\nvier\n");
  EXPECT_EQ(read(o2), "a\nb\n");
  EXPECT_EQ(read(o3), read(o1));
}

TEST(FetchArchive, ZipMember) {
  const std::string zip = tmp_path("en-tr.txt.zip");
  write_archive(zip, true, {{"README", "r"}, {"SETIMES.en-tr.en", "one\ntwo\n"}, {"SETIMES.en-tr.tr", "bir\niki\n"}});
  const std::string out = tmp_path("tr");
  extract_members(zip, {{"SETIMES.en-tr.tr", {}, "", out}});
  EXPECT_EQ(read(out), "bir\niki\n");
}

TEST(FetchArchive, MissingMemberListsNearestNames) {
  const std::string tgz = tmp_path("nc.tgz");
  write_archive(tgz, false, {{"training/news-commentary-v12.de-en.de", "x\n"}, {"training/news-commentary-v12.de-en.en", "y\n"},
                             {"training/news-commentary-v12.ru-en.ru", "z\n"}, {"other/file", "w\n"}});
  try {
    extract_members(tgz, {{"training/news-commentary-v11.de-en.de", {}, "", tmp_path("o")}});
    FAIL() << "no error";
  } catch (const synmt::InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(tgz + ": no member 'training/news-commentary-v11.de-en.de' among its 4 files; nearest names: "
                           "training/news-commentary-v12.de-en.de"),
              std::string::npos)
        << m;
  }
  EXPECT_FALSE(fs::exists(tmp_path("o")));
}

TEST(FetchArchive, BadMemberChecksumOrContentLeavesNoOutput) {
  const std::string tgz = tmp_path("t.tgz");
  write_archive(tgz, false, {{"a.txt", "a\n"}, {"b.sgm", "<seg>x</seg>\n<seg>y\n"}});
  const std::string out = tmp_path("o");
  try {
    extract_members(tgz, {{"a.txt", {}, std::string(64, '0'), out}});
    FAIL() << "no error";
  } catch (const synmt::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(tgz + "(a.txt): sha256 of the decompressed content is"), std::string::npos) << e.what();
  }
  try {
    extract_members(tgz, {{"b.sgm", parse_format("sgml"), "", out}});
    FAIL() << "no error";
  } catch (const synmt::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(tgz + "(b.sgm):2: <seg> is never closed"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(out));
  const std::string plain = write_tmp("plain.txt", "not an archive\n");
  EXPECT_THROW(extract_members(plain, {{"x", {}, "", out}}), synmt::InputError);
}

TEST(FetchSource, MirrorCacheDownloadAndManual) {
  const std::string root = fresh_dir();
  const std::string mirror = root + "mirror", cache = root + "cache", remote = root + "remote";
  fs::create_directories(mirror + "/wmt17");
  fs::create_directories(remote);
  write_archive(remote + "/dev.tgz", false, {{"dev/x", "x\n"}});
  const std::string md5 = "md5:" + file_digest(remote + "/dev.tgz", "md5");
  const std::string url = "file://" + fs::absolute(remote + "/dev.tgz").string();

  SourceOptions opts{mirror, cache, root, {{"un/UNv1.0.ar-ru.tar.gz", "register at the UN corpus site"}}};
  {
    Sources s(opts);
    const std::string& got = s.get("wmt17/dev.tgz", url, parse_checksum(md5));
    EXPECT_EQ(got, cache + "/wmt17/dev.tgz");
    EXPECT_EQ(&s.get("wmt17/dev.tgz", url, parse_checksum(md5)), &got);  // once per run
  }
  fs::remove(remote + "/dev.tgz");
  {
    Sources s(opts);  // a later job: from the cache, no download
    EXPECT_EQ(s.get("wmt17/dev.tgz", url, parse_checksum(md5)), cache + "/wmt17/dev.tgz");
  }
  {
    Sources s(opts);  // the mirror comes first and is checked too
    fs::copy_file(cache + "/wmt17/dev.tgz", mirror + "/wmt17/dev.tgz");
    EXPECT_EQ(s.get("wmt17/dev.tgz", url, parse_checksum(md5)), mirror + "/wmt17/dev.tgz");
    EXPECT_THROW(s.get("wmt17/other.tgz", "-", parse_checksum(std::string(64, '0'))), synmt::InputError);
    try {
      Sources t(opts);
      t.get("wmt17/dev.tgz", url, parse_checksum(std::string(64, '0')));
      FAIL() << "no error";
    } catch (const synmt::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(mirror + "/wmt17/dev.tgz: sha256 of the file is"), std::string::npos) << e.what();
    }
  }
  try {
    Sources s(opts);
    s.get("un/UNv1.0.ar-ru.tar.gz", "-", {});
    FAIL() << "no error";
  } catch (const synmt::InputError& e) {
    EXPECT_EQ(std::string(e.what()), "un/UNv1.0.ar-ru.tar.gz: needs a manual download: register at the UN corpus site "
                                     "(place it at " + mirror + "/un/UNv1.0.ar-ru.tar.gz)");
  }
  // a download whose checksum does not match leaves nothing in the cache
  write_archive(remote + "/b.tgz", false, {{"b", "b\n"}});
  Sources s(opts);
  EXPECT_THROW(s.get("b.tgz", "file://" + fs::absolute(remote + "/b.tgz").string(), parse_checksum(md5)), synmt::InputError);
  EXPECT_FALSE(fs::exists(cache + "/b.tgz"));
}

TEST(FetchTool, ArchiveMembersParallelGroupsAndManualMessage) {
  const std::string root = fresh_dir();
  fs::create_directories(root + "m/wmt");
  write_archive(root + "m/wmt/train.tgz", false,
                {{"training/ep.de-en.de", "a\nb\nc\n"}, {"training/ep.de-en.en", "A\nB\nC\n"}});
  write_archive(root + "m/wmt/dev.zip", true,
                {{"dev/nt-src.de.sgm", "<seg id=\"1\">x</seg>\n"}, {"dev/nt-ref.en.sgm", "<seg id=\"1\">X</seg>\n"}});
  const std::string bin = std::string(SYNMT_BIN_DIR) + "/synmt-fetch";
  const std::string url = "https://example.org/none";
  const std::string cmd = bin + " --mirror " + root + "m --cache-dir " + root + "cache" +
                          " --archive-file wmt/train.tgz " + url + " - training/ep.de-en.de text - " + root + "src.0" +
                          " --archive-file wmt/dev.zip " + url + " - dev/nt-src.de.sgm sgml - " + root + "src.1" +
                          " --archive-file wmt/train.tgz " + url + " - training/ep.de-en.en text - " + root + "tgt.0" +
                          " --archive-file wmt/dev.zip " + url + " - dev/nt-ref.en.sgm sgml - " + root + "tgt.1" +
                          " 2> " + root + "err";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << read(root + "err");
  EXPECT_EQ(read(root + "src.0"), "a\nb\nc\n");
  EXPECT_EQ(read(root + "tgt.1"), "X\n");
  // train.tgz is opened once for both of its members
  EXPECT_NE(read(root + "err").find("fetch: 2 member(s) of " + root + "m/wmt/train.tgz"), std::string::npos) << read(root + "err");

  const std::string manual = bin + " --mirror " + root + "m --manual aspec/ASPEC.zip 'obtain ASPEC from its site'" +
                             " --archive-file aspec/ASPEC.zip - - ASPEC/ASPEC-JE/dev/dev.txt field:-1 - " + root + "dev.en" +
                             " 2> " + root + "err2";
  EXPECT_NE(std::system(manual.c_str()), 0);
  EXPECT_NE(read(root + "err2").find("aspec/ASPEC.zip: needs a manual download: obtain ASPEC from its site (place it at " +
                                     root + "m/aspec/ASPEC.zip)"),
            std::string::npos)
      << read(root + "err2");
}

// Found by tests/fuzz/fuzz_fetch: on this damaged zip (the committed reproducer, after the target's
// two header lines) libarchive fails without an error message (a null string), which crashed the
// error's formatting; now a clear error naming the file.
TEST(FetchArchive, DamagedZipWithoutLibarchiveDetailIsAClearError) {
  std::ifstream in(std::string(SYNMT_SOURCE_DIR) + "/tests/fuzz/corpus/fuzz_fetch/regression_zip_data_without_error_text", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_EQ(bytes.compare(0, 7, "-\ntext\n"), 0);
  const std::string zip = tmp_path("damaged.zip");
  std::ofstream(zip, std::ios::binary) << bytes.substr(7);
  try {
    extract_members(zip, {{"a/b.txt", {}, "", tmp_path("b")}});
    FAIL() << "no error";
  } catch (const synmt::InputError& e) {
    EXPECT_EQ(std::string(e.what()), zip + ": corrupt archive: libarchive gave no detail");
  }
}
