#pragma once
// The designer's report as one self-contained HTML page: no network, the
// plots inline as SVG, drawn only from report_json's object (report_data.hpp),
// which the page also carries (script#report-data). Every figure printed
// names the JSON value it shows (data-json: a JSON pointer; data-value: the
// value), so a test or a browser can check that page and JSON agree.
#include <string>

#include <nlohmann/json.hpp>

namespace rulebook::cli {

std::string report_page(const nlohmann::json& report);

}  // namespace rulebook::cli
