#pragma once
// A usage error in our words. CLI11 words a range check on a value that is
// not a number as "--games: Value abc not in range 1 to 100", which reads as
// if abc were a number too big; this says what is wrong and what to give.
#include <string>

namespace rulebook::cli {

// The message for a CLI11 parse error's text: rewritten where ours says it
// better, else the text as it is.
std::string usage_words(const std::string& parser_message);

}  // namespace rulebook::cli
