#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H
/* libpq is not linked: EventStore/Postgres/LibPQ.swift opens it with dlopen on first use
   (docs/decisions/lazy-system-libraries.md). The header is included by its full path, since no
   pkg-config flags add /usr/include/postgresql; postgres_ext.h, included with quotes, is found
   beside it. Each function the store calls has its pointer type here, taken from its declaration,
   so a signature is never copied by hand. */
#include <postgresql/libpq-fe.h>

typedef __typeof__(&PQconnectdb) cpq_PQconnectdb_fn;
typedef __typeof__(&PQfinish) cpq_PQfinish_fn;
typedef __typeof__(&PQreset) cpq_PQreset_fn;
typedef __typeof__(&PQstatus) cpq_PQstatus_fn;
typedef __typeof__(&PQtransactionStatus) cpq_PQtransactionStatus_fn;
typedef __typeof__(&PQserverVersion) cpq_PQserverVersion_fn;
typedef __typeof__(&PQerrorMessage) cpq_PQerrorMessage_fn;
typedef __typeof__(&PQsocket) cpq_PQsocket_fn;
typedef __typeof__(&PQexec) cpq_PQexec_fn;
typedef __typeof__(&PQprepare) cpq_PQprepare_fn;
typedef __typeof__(&PQexecPrepared) cpq_PQexecPrepared_fn;
typedef __typeof__(&PQsendQueryParams) cpq_PQsendQueryParams_fn;
typedef __typeof__(&PQsendQueryPrepared) cpq_PQsendQueryPrepared_fn;
typedef __typeof__(&PQgetResult) cpq_PQgetResult_fn;
typedef __typeof__(&PQenterPipelineMode) cpq_PQenterPipelineMode_fn;
typedef __typeof__(&PQexitPipelineMode) cpq_PQexitPipelineMode_fn;
typedef __typeof__(&PQpipelineSync) cpq_PQpipelineSync_fn;
typedef __typeof__(&PQconsumeInput) cpq_PQconsumeInput_fn;
typedef __typeof__(&PQnotifies) cpq_PQnotifies_fn;
typedef __typeof__(&PQfreemem) cpq_PQfreemem_fn;
typedef __typeof__(&PQresultStatus) cpq_PQresultStatus_fn;
typedef __typeof__(&PQresultErrorField) cpq_PQresultErrorField_fn;
typedef __typeof__(&PQclear) cpq_PQclear_fn;
typedef __typeof__(&PQntuples) cpq_PQntuples_fn;
typedef __typeof__(&PQnfields) cpq_PQnfields_fn;
typedef __typeof__(&PQcmdTuples) cpq_PQcmdTuples_fn;
typedef __typeof__(&PQftype) cpq_PQftype_fn;
typedef __typeof__(&PQgetisnull) cpq_PQgetisnull_fn;
typedef __typeof__(&PQgetlength) cpq_PQgetlength_fn;
typedef __typeof__(&PQgetvalue) cpq_PQgetvalue_fn;
#endif
