#pragma once
// The draft-07 meta-schema, built in so that
// {"$ref": "http://json-schema.org/draft-07/schema#"} works without network
// access.
namespace rulebook::schema::detail {

extern const char* const kDraft07Uri;          // without the trailing '#'
extern const char* const kDraft07MetaSchema;  // the document, as JSON text

}  // namespace rulebook::schema::detail
