-- The address index behind `GET webtool/service_points?opname=address` (issue 14): the addresses a
-- service point may be validated against. Reference data, not records: no history, no tenancy.
-- The *_key columns and search_text hold the text folded (lower case, accents and separators
-- dropped; search_text is the label's words, each after a space), so that 'kobenhavn' finds
-- 'København'; the suggestions are read within one country or
-- one map box, hence the two indexes.

CREATE TABLE addresses (
  address_id integer PRIMARY KEY,
  country text NOT NULL,
  street text NOT NULL,
  house_number text NOT NULL,
  postal_code text NOT NULL,
  city text NOT NULL,
  municipality_id integer,
  municipality_name text,
  region_id integer,
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  label text NOT NULL,
  label_key text NOT NULL,
  street_key text NOT NULL,
  postal_key text NOT NULL,
  city_key text NOT NULL,
  search_text text NOT NULL
);

CREATE INDEX addresses_by_country ON addresses (country);
CREATE INDEX addresses_by_position ON addresses (latitude, longitude);
