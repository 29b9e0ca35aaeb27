// libxml2 on Debian is built with ICU, so <libxml/encoding.h> includes <unicode/ucnv.h>.
// Those ICU declarations clash with the newer ICU copy inside Foundation (_FoundationICU)
// as soon as one Swift module imports both. Folio uses no ICU type: mark ucnv.h as already
// included and declare the two names encoding.h needs as opaque.
#include <stdint.h>
#ifndef UCNV_H
#define UCNV_H
typedef struct UConverter UConverter;
typedef uint16_t UChar;
#endif

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/relaxng.h>
#include <libxml/xmlschemas.h>
