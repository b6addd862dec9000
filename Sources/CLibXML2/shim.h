#ifndef FITIQ_CLIBXML2_SHIM_H
#define FITIQ_CLIBXML2_SHIM_H
/* The few libxml2 types, constants and function signatures the health export reader uses, declared
 * here instead of included from <libxml/...>, so nothing links libxml2: FitIQImport opens
 * libxml2.so.2 with dlopen when the first export is read (LibXML2.swift), and fitiq-tui starts
 * without libxml2 and the ICU libraries it pulls in. No function is declared, only pointer types for
 * dlsym.
 *
 * Every declaration mirrors libxml2's ABI (soname libxml2.so.2, stable since 2.6);
 * scripts/health/check-libxml2-abi.sh compiles them against the system's headers and fails on any
 * difference in a size, offset or value. SAX callbacks this reader never sets are plain pointers. */

typedef unsigned char xmlChar;

typedef struct _xmlParserCtxt xmlParserCtxt;
typedef xmlParserCtxt *xmlParserCtxtPtr;
typedef struct _xmlParserInput *xmlParserInputPtr;

/* xmlErrorLevel */
enum { XML_ERR_NONE = 0, XML_ERR_WARNING = 1, XML_ERR_ERROR = 2, XML_ERR_FATAL = 3 };

/* The xmlParserErrors codes the reader tells apart. */
enum {
    XML_ERR_DOCUMENT_EMPTY = 4,
    XML_ERR_DOCUMENT_END = 5,
    XML_ERR_INVALID_CHAR = 9,
    XML_ERR_ATTRIBUTE_NOT_FINISHED = 40,
    XML_ERR_ATTRIBUTE_WITHOUT_VALUE = 41,
    XML_ERR_LITERAL_NOT_FINISHED = 44,
    XML_ERR_SPACE_REQUIRED = 65,
    XML_ERR_NAME_REQUIRED = 68,
    XML_ERR_GT_REQUIRED = 73,
    XML_ERR_LTSLASH_REQUIRED = 74,
    XML_ERR_TAG_NOT_FINISHED = 77,
};

/* The xmlParserOption flags the reader sets. */
enum { XML_PARSE_NONET = 1 << 11, XML_PARSE_IGNORE_ENC = 1 << 21 };

#define XML_SAX2_MAGIC 0xDEEDBEAF

typedef struct _xmlError {
    int domain;
    int code;
    char *message;
    int level; /* xmlErrorLevel */
    char *file;
    int line;
    char *str1;
    char *str2;
    char *str3;
    int int1;
    int int2;
    void *ctxt;
    void *node;
} xmlError;

typedef void (*startElementNsSAX2Func)(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                                       const xmlChar *URI, int nb_namespaces, const xmlChar **namespaces,
                                       int nb_attributes, int nb_defaulted, const xmlChar **attributes);
typedef void (*endElementNsSAX2Func)(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                                     const xmlChar *URI);
typedef void (*xmlStructuredErrorFunc)(void *userData, const xmlError *error);
typedef xmlParserInputPtr (*xmlExternalEntityLoader)(const char *URL, const char *ID, xmlParserCtxtPtr context);

typedef struct _xmlSAXHandler {
    void *internalSubset;
    void *isStandalone;
    void *hasInternalSubset;
    void *hasExternalSubset;
    void *resolveEntity;
    void *getEntity;
    void *entityDecl;
    void *notationDecl;
    void *attributeDecl;
    void *elementDecl;
    void *unparsedEntityDecl;
    void *setDocumentLocator;
    void *startDocument;
    void *endDocument;
    void *startElement;
    void *endElement;
    void *reference;
    void *characters;
    void *ignorableWhitespace;
    void *processingInstruction;
    void *comment;
    void *warning;
    void *error;
    void *fatalError;
    void *getParameterEntity;
    void *cdataBlock;
    void *externalSubset;
    unsigned int initialized;
    void *_private;
    startElementNsSAX2Func startElementNs;
    endElementNsSAX2Func endElementNs;
    xmlStructuredErrorFunc serror;
} xmlSAXHandler;

/* The functions, as pointers to what dlsym returns. */
typedef void (*fitiq_xmlInitParser)(void);
typedef xmlExternalEntityLoader (*fitiq_xmlSetExternalEntityLoader)(xmlExternalEntityLoader loader);
typedef xmlParserCtxtPtr (*fitiq_xmlCreatePushParserCtxt)(xmlSAXHandler *sax, void *user_data, const char *chunk,
                                                          int size, const char *filename);
typedef int (*fitiq_xmlCtxtUseOptions)(xmlParserCtxtPtr ctxt, int options);
typedef int (*fitiq_xmlParseChunk)(xmlParserCtxtPtr ctxt, const char *chunk, int size, int terminate);
typedef void (*fitiq_xmlStopParser)(xmlParserCtxtPtr ctxt);
typedef void (*fitiq_xmlFreeParserCtxt)(xmlParserCtxtPtr ctxt);
typedef int (*fitiq_xmlSAX2GetLineNumber)(xmlParserCtxtPtr ctx);
#endif
