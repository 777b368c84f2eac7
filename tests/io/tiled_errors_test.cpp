// load_tiled_map on broken and hostile files: every failure is an Error with
// the right code and a message that names the file and the layer; nothing
// throws, crashes or allocates absurd amounts.
#include "tiled_support.hpp"

#include <sweep/io/tiled.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using sweep::ErrorCode;
using sweep::io::load_tiled_map;
using sweep::io::StaticGeometry;
using sweep::test::base64_encode;
using sweep::test::gid_bytes;
using sweep::test::TempDir;
using sweep::test::tmx_map;

/// Loads `text` saved as `name`; expects an Error with `code` whose message
/// contains the file name and every one of `fragments`.
void expect_error(const std::string& name, const std::string& text, ErrorCode code,
                  const std::vector<std::string>& fragments) {
    TempDir dir;
    const auto file = dir.write(name, text);
    const sweep::Result<StaticGeometry> result = load_tiled_map(file);
    ASSERT_FALSE(result.has_value()) << "loaded although it should fail";
    EXPECT_EQ(result.error().code, code)
        << sweep::to_string(result.error().code) << ": " << result.error().message;
    EXPECT_NE(result.error().message.find(file.string()), std::string::npos)
        << result.error().message;
    for (const std::string& fragment : fragments) {
        EXPECT_NE(result.error().message.find(fragment), std::string::npos)
            << "no \"" << fragment << "\" in: " << result.error().message;
    }
}

std::string csv_data(const std::string& values) {
    return "<data encoding=\"csv\">" + values + "</data>";
}

std::string base64_data(const std::string& text, const std::string& compression = "") {
    return "<data encoding=\"base64\"" +
           (compression.empty() ? std::string() : " compression=\"" + compression + "\"") + ">" +
           text + "</data>";
}

const std::string k_layer = "layer \"Collision\"";

TEST(TiledErrors, MissingFileAndDirectoryAreIoErrors) {
    TempDir dir;
    const auto missing = dir.write("x", "").parent_path() / "nope.tmx";
    auto result = load_tiled_map(missing);
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().code, ErrorCode::io_error);
    EXPECT_NE(result.error().message.find("nope.tmx"), std::string::npos);
    auto directory = load_tiled_map(missing.parent_path());
    ASSERT_FALSE(directory.has_value());
    EXPECT_EQ(directory.error().code, ErrorCode::io_error);
}

TEST(TiledErrors, EmptyAndForeignFilesAreParseErrors) {
    expect_error("empty.tmx", "", ErrorCode::parse_error, {"empty"});
    expect_error("png.tmx", "\x89PNG\r\n", ErrorCode::parse_error, {"neither"});
}

TEST(TiledErrors, TruncatedXmlNamesTheLine) {
    std::string text = tmx_map(2, 2, "Collision", csv_data("1,0,\n0,1"));
    text.resize(text.find("</data>") + 3);
    expect_error("cut.tmx", text, ErrorCode::parse_error, {"line 6", "XML"});
}

TEST(TiledErrors, TruncatedJsonIsAParseError) {
    expect_error("cut.tmj", R"({"tilewidth":16,"tileheight":16,"layers":[{"type":"tilelayer",)",
                 ErrorCode::parse_error, {"JSON"});
}

TEST(TiledErrors, BadBase64NamesLayerAndOffset) {
    expect_error("b64.tmx", tmx_map(1, 1, "Collision", base64_data("AQA!AA==")),
                 ErrorCode::parse_error, {k_layer, "data", "base64", "'!'", "offset 3"});
    expect_error("pad.tmx", tmx_map(1, 1, "Collision", base64_data("AQAAA")),
                 ErrorCode::parse_error, {k_layer, "base64"});
}

TEST(TiledErrors, UnknownCompressionAndEncodingAreUnsupported) {
    TempDir dir;
    const auto file =
        dir.write("lzma.tmx", tmx_map(1, 1, "Collision", base64_data("AQAAAA==", "lzma")));
    auto result = load_tiled_map(file);
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().code, ErrorCode::unsupported);
    EXPECT_EQ(result.error().message,
              file.string() + ": layer \"Collision\": data: unknown compression \"lzma\"");
    expect_error("enc.tmx", tmx_map(1, 1, "Collision", "<data encoding=\"base32\">AAAA</data>"),
                 ErrorCode::unsupported, {k_layer, "unknown encoding \"base32\""});
    expect_error(
        "enc.json",
        R"({"tilewidth":8,"tileheight":8,"layers":[{"type":"tilelayer","name":"Solid",)"
        R"("width":1,"height":1,"encoding":"base64","compression":"brotli","data":"AQAAAA=="}]})",
        ErrorCode::unsupported, {"layer \"Solid\"", "brotli"});
}

TEST(TiledErrors, WrongCsvCountsAreParseErrors) {
    expect_error("few.tmx", tmx_map(2, 2, "Collision", csv_data("1,0,0")), ErrorCode::parse_error,
                 {k_layer, "3 values, expected 4"});
    expect_error("many.tmx", tmx_map(2, 2, "Collision", csv_data("1,0,0,1,1")),
                 ErrorCode::parse_error, {k_layer, "more than 4"});
    expect_error("hole.tmx", tmx_map(2, 2, "Collision", csv_data("1,,0,1")), ErrorCode::parse_error,
                 {k_layer, "value 2", "empty"});
}

TEST(TiledErrors, NonNumericAndOutOfRangeGidsAreParseErrors) {
    expect_error("abc.tmx", tmx_map(2, 1, "Collision", csv_data("1,abc")), ErrorCode::parse_error,
                 {k_layer, "value 2", "\"abc\""});
    expect_error("neg.tmx", tmx_map(2, 1, "Collision", csv_data("1,-1")), ErrorCode::parse_error,
                 {k_layer, "value 2"});
    expect_error("big.tmx", tmx_map(2, 1, "Collision", csv_data("1,4294967296")),
                 ErrorCode::parse_error, {k_layer, "out of range"});
    expect_error("float.tmx", tmx_map(2, 1, "Collision", csv_data("1,2.5")), ErrorCode::parse_error,
                 {k_layer, "value 2"});
    expect_error("json.tmj",
                 R"({"tilewidth":8,"tileheight":8,"layers":[{"type":"tilelayer","name":"Solid",)"
                 R"("width":2,"height":1,"data":[1,"two"]}]})",
                 ErrorCode::parse_error, {"layer \"Solid\"", "value 2", "two"});
}

TEST(TiledErrors, AbsurdSizesAreRefusedBeforeAllocating) {
    expect_error("huge.tmx", tmx_map(100000000, 100000000, "Collision", csv_data("1")),
                 ErrorCode::limit_exceeded, {k_layer, "100000000x100000000"});
    expect_error("huge.tmj",
                 R"({"tilewidth":8,"tileheight":8,"layers":[{"type":"tilelayer","name":"Solid",)"
                 R"("width":100000000,"height":100000000,"data":[]}]})",
                 ErrorCode::limit_exceeded, {"layer \"Solid\""});
    // Each chunk is allowed, together they are not.
    std::string chunks;
    for (int i = 0; i < 5; ++i) {
        chunks += "<chunk x=\"" + std::to_string(i * 4096) +
                  "\" y=\"0\" width=\"4096\" height=\"4096\"/>";
    }
    expect_error("chunks.tmx",
                 "<map orientation=\"orthogonal\" tilewidth=\"8\" tileheight=\"8\" infinite=\"1\">"
                 "<layer name=\"Collision\"><data encoding=\"csv\">" +
                     chunks + "</data></layer></map>",
                 ErrorCode::limit_exceeded, {"budget"});
    // Two small chunks far apart would need a giant grid.
    expect_error("far.tmx",
                 "<map orientation=\"orthogonal\" tilewidth=\"8\" tileheight=\"8\" infinite=\"1\">"
                 "<layer name=\"Collision\"><data encoding=\"csv\">"
                 "<chunk x=\"-100000000\" y=\"0\" width=\"1\" height=\"1\">1</chunk>"
                 "<chunk x=\"100000000\" y=\"0\" width=\"1\" height=\"1\">1</chunk>"
                 "</data></layer></map>",
                 ErrorCode::limit_exceeded, {"budget"});
    expect_error("coord.tmx",
                 "<map orientation=\"orthogonal\" tilewidth=\"8\" tileheight=\"8\" infinite=\"1\">"
                 "<layer name=\"Collision\"><data encoding=\"csv\">"
                 "<chunk x=\"9999999999\" y=\"0\" width=\"1\" height=\"1\">1</chunk>"
                 "</data></layer></map>",
                 ErrorCode::limit_exceeded, {k_layer, "chunk 1", "x"});
    std::string text = tmx_map(1, 1, "Collision", csv_data("1"));
    text.replace(text.find("tilewidth=\"16\""), 14, "tilewidth=\"100000\"");
    expect_error("tile.tmx", text, ErrorCode::limit_exceeded, {"tilewidth"});
}

TEST(TiledErrors, DecompressionBombsAndShortStreamsAreCaught) {
    const std::string zeros(1 << 20, '\0');
    expect_error(
        "bomb.tmx",
        tmx_map(2, 2, "Collision",
                base64_data(base64_encode(sweep::test::deflate_bytes(zeros, false)), "zlib")),
        ErrorCode::limit_exceeded, {k_layer, "more than 16 bytes"});
    expect_error("zbomb.tmx",
                 tmx_map(2, 2, "Collision",
                         base64_data(base64_encode(sweep::test::zstd_bytes(zeros)), "zstd")),
                 ErrorCode::limit_exceeded, {k_layer, "more than 16 bytes"});
    const std::string three = gid_bytes({1, 2, 3});
    expect_error(
        "short.tmx",
        tmx_map(2, 2, "Collision",
                base64_data(base64_encode(sweep::test::deflate_bytes(three, true)), "gzip")),
        ErrorCode::parse_error, {k_layer, "12 bytes, expected 16"});
    expect_error("shortz.tmx",
                 tmx_map(2, 2, "Collision",
                         base64_data(base64_encode(sweep::test::zstd_bytes(three)), "zstd")),
                 ErrorCode::parse_error, {k_layer, "12 bytes, expected 16"});
    expect_error("raw.tmx", tmx_map(2, 2, "Collision", base64_data(base64_encode(three))),
                 ErrorCode::parse_error, {k_layer, "12 bytes, expected 16"});
    std::string cut = sweep::test::deflate_bytes(gid_bytes({1, 2, 3, 4}), false);
    cut.resize(cut.size() - 6);
    expect_error("cutz.tmx", tmx_map(2, 2, "Collision", base64_data(base64_encode(cut), "zlib")),
                 ErrorCode::parse_error, {k_layer, "truncated"});
    expect_error("junk.tmx", tmx_map(2, 2, "Collision", base64_data("AAAAAAAAAAAA", "zstd")),
                 ErrorCode::parse_error, {k_layer, "zstd"});
}

TEST(TiledErrors, BadSizesAndNumbersAreParseErrors) {
    std::string text = tmx_map(1, 1, "Collision", csv_data("1"));
    const auto with = [&](const std::string& from, const std::string& to) {
        std::string t = text;
        t.replace(t.find(from), from.size(), to);
        return t;
    };
    expect_error("nan.tmx", with("tilewidth=\"16\"", "tilewidth=\"nan\""), ErrorCode::parse_error,
                 {"tilewidth", "not an integer"});
    expect_error("inf.tmx", with("tileheight=\"8\"", "tileheight=\"inf\""), ErrorCode::parse_error,
                 {"tileheight"});
    expect_error("zero.tmx", with("tilewidth=\"16\"", "tilewidth=\"0\""), ErrorCode::parse_error,
                 {"tilewidth", "positive"});
    expect_error("negw.tmx",
                 with("name=\"Collision\" width=\"1\"", "name=\"Collision\" width=\"-1\""),
                 ErrorCode::parse_error, {k_layer, "width", "negative"});
    expect_error("frac.tmj", R"({"tilewidth":8.5,"tileheight":8,"layers":[]})",
                 ErrorCode::parse_error, {"tilewidth", "not an integer"});
    expect_error("negj.tmj",
                 R"({"tilewidth":8,"tileheight":8,"layers":[{"type":"tilelayer","name":"Solid",)"
                 R"("width":-3,"height":1,"data":[]}]})",
                 ErrorCode::parse_error, {"layer \"Solid\"", "width", "negative"});
    expect_error("hugej.tmj", R"({"tilewidth":1e400,"tileheight":8,"layers":[]})",
                 ErrorCode::parse_error, {});
    expect_error("root.tmx", "<tileset name=\"x\"/>", ErrorCode::invalid_input,
                 {"tileset", "not a map"});
    expect_error("root2.tmx", "<layer name=\"x\"/>", ErrorCode::parse_error, {"<map>"});
}

TEST(TiledErrors, DeeplyNestedGroupsAreRefused) {
    std::string text = "<map orientation=\"orthogonal\" tilewidth=\"8\" tileheight=\"8\">";
    for (int i = 0; i < 200; ++i) {
        text += "<group name=\"g\">";
    }
    for (int i = 0; i < 200; ++i) {
        text += "</group>";
    }
    text += "</map>";
    expect_error("deep.tmx", text, ErrorCode::limit_exceeded, {"nested"});
}

TEST(TiledErrors, EveryTruncationOfAValidMapFailsCleanly) {
    const std::string raw = gid_bytes({1, 0, 2, 0});
    const std::vector<std::string> maps = {
        tmx_map(2, 2, "Collision",
                base64_data(base64_encode(sweep::test::deflate_bytes(raw, true)), "gzip")),
        R"({"tilewidth":8,"tileheight":8,"infinite":true,"layers":[{"type":"tilelayer","name":"Solid",)"
        R"("encoding":"base64","compression":"zstd","chunks":[{"x":-1,"y":0,"width":2,"height":2,"data":")" +
            base64_encode(sweep::test::zstd_bytes(raw)) + R"("}]}]})",
    };
    TempDir dir;
    for (const std::string& text : maps) {
        auto whole = load_tiled_map(dir.write("whole", text));
        ASSERT_TRUE(whole.has_value()) << sweep::test::describe(whole);
        EXPECT_EQ(whole->solid_tiles, 2u);
        for (std::size_t n = 0; n < text.size(); ++n) {
            auto result = load_tiled_map(dir.write("cut", text.substr(0, n)));
            // A few cuts leave a valid document (e.g. after the last element);
            // the rest must be errors, never exceptions or crashes.
            if (!result.has_value()) {
                EXPECT_FALSE(result.error().message.empty());
            }
        }
    }
}

} // namespace
