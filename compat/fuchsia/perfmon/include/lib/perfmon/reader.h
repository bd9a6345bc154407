/* SPDX-License-Identifier: MIT */
/* Reads a perfmon buffer (records.h): checks the header and walks the records up to
 * capture_end, refusing what is not whole. */
#ifndef LIBPMAPI_COMPAT_FUCHSIA_PERFMON_READER_H_
#define LIBPMAPI_COMPAT_FUCHSIA_PERFMON_READER_H_

#include <stddef.h>
#include <stdint.h>

#include "lib/perfmon/records.h"
#include "lib/perfmon/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfmon_reader {
  const uint8_t *data;
  size_t size;   /* bytes mapped or read */
  size_t offset; /* of the next record */
  size_t end;    /* capture_end */
  uint64_t time; /* the last TIME record's value: the time of what follows */
  zx_status_t status;
} perfmon_reader_t;

typedef struct perfmon_record {
  size_t offset; /* of the record in the buffer */
  uint8_t type;  /* PERFMON_RECORD_* */
  perfmon_event_id_t event;
  uint64_t time;   /* TIME: its value; others: the last TIME before them */
  uint64_t value;  /* COUNT count, VALUE value, PC pc; 0 otherwise */
  uint64_t aspace; /* PC and LAST_BRANCH */
  const perfmon_last_branch_record_t *last_branch; /* LAST_BRANCH only; may be unaligned */
} perfmon_record_t;

/* ZX_ERR_INVALID_ARGS if the header is bad (version, capture_end below 24 or past size). */
zx_status_t perfmon_reader_init(perfmon_reader_t *reader, const void *data, size_t size);
/* ZX_OK and the next record; ZX_ERR_NOT_FOUND at capture_end; ZX_ERR_IO for a record that is
 * unknown or extends past capture_end (the reader stops there). */
zx_status_t perfmon_reader_next(perfmon_reader_t *reader, perfmon_record_t *record);
/* The header's fields (the reader must be initialized). */
const perfmon_buffer_header_t *perfmon_reader_header(const perfmon_reader_t *reader);

#ifdef __cplusplus
}
#endif

#endif
