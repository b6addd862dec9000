#ifndef FITIQ_CLIBXML2_SHIM_H
#define FITIQ_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, so <libxml/encoding.h> would include the system's
 * <unicode/ucnv.h>, whose enums clash with Foundation's bundled ICU (_FoundationICU) in any Swift
 * module that imports both. The macro only adds two trailing pointer fields to
 * xmlCharEncodingHandler, which Swift code here never touches (it uses the SAX handler, the
 * parser context as an opaque pointer and xmlError). */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#endif
