-- A save whose record moved on (its version is not the one the caller edited) or a new record whose key is taken
-- writes nothing: record-writes.ts `storeUpdate` and `storeNew` found that from the statement's empty answer and
-- refused the save with a 409, which rolled back what the rules had written before in the same transaction.
-- The statement now fails by itself in that case, with this function's error (SQLSTATE WT409, the message naming
-- why), so that a save may send its COMMIT in the same round trip as its write (adapter.ts `Db.commitWith`;
-- issue 32): a statement that fails leaves the COMMIT after it unrun and the transaction to roll back, as before.
CREATE FUNCTION webtool_refuse_write(reason text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$ BEGIN RAISE EXCEPTION 'write refused: %', reason USING ERRCODE = 'WT409'; END $$;
