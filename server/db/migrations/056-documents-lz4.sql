-- Records' documents compressed with LZ4 where the server has it (PostgreSQL 14 and later built with it, as
-- Debian's is), not pglz (issue 32, `npm run load`). A service point's document is past the size at which
-- PostgreSQL compresses a row's values, and every reading of it decompresses it again: each page of a list for
-- each document it sends, and the save's triggers for every field they look up in the document as it was (the
-- change feed's changed fields, about fifty lookups). pglz's decompression was 4 % of the machine's CPU under
-- 200 clients (`perf`), more than half of it in those triggers; LZ4 decompresses several times faster.
-- Documents written from now on are compressed so; those already stored stay as they are until their next save.
-- PGlite is built without LZ4 and keeps pglz, as does PostgreSQL 13 (no choice of compression) or a server built
-- without it.
DO $$ BEGIN IF current_setting('server_version_num')::int >= 140000 THEN ALTER TABLE records ALTER COLUMN doc SET COMPRESSION lz4; END IF; EXCEPTION WHEN feature_not_supported THEN NULL; END $$;
