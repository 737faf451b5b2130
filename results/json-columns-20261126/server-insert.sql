\timing on
drop table if exists jx_src, jx_b, jx_j, jx_t;
create unlogged table jx_src as select i,
  json_build_object('id', md5(i::text), 'name', md5((i*7)::text), 'count', i, 'flag', true, 'note', repeat('x', 60))::text c1,
  json_build_object('id', md5(i::text), 'name', md5((i*3)::text), 'count', i, 'city', 'Somewhere', 'zip', '12345', 'street', md5((i*5)::text))::text c2,
  json_build_object('a', md5(i::text), 'b', md5((i*11)::text), 'c', i*2, 'd', 'some text here', 'e', 42)::text c3,
  json_build_object('k1', md5(i::text), 'k2', md5((i*13)::text), 'k3', i*3)::text c4,
  json_build_object('x', md5(i::text), 'y', md5((i*17)::text), 'z', i*4, 'w', 'abcdefghijklmnop')::text c5
  from generate_series(1, 200000) i;
create table jx_b (c1 jsonb, c2 jsonb, c3 jsonb, c4 jsonb, c5 jsonb);
create table jx_j (c1 json, c2 json, c3 json, c4 json, c5 json);
create table jx_t (c1 text, c2 text, c3 text, c4 text, c5 text);
select pg_size_pretty(pg_total_relation_size('jx_src'));
insert into jx_b select c1::jsonb, c2::jsonb, c3::jsonb, c4::jsonb, c5::jsonb from jx_src;
insert into jx_j select c1::json, c2::json, c3::json, c4::json, c5::json from jx_src;
insert into jx_t select c1, c2, c3, c4, c5 from jx_src;
truncate jx_b, jx_j, jx_t;
insert into jx_b select c1::jsonb, c2::jsonb, c3::jsonb, c4::jsonb, c5::jsonb from jx_src;
insert into jx_j select c1::json, c2::json, c3::json, c4::json, c5::json from jx_src;
insert into jx_t select c1, c2, c3, c4, c5 from jx_src;
select pg_size_pretty(pg_total_relation_size('jx_b')) b, pg_size_pretty(pg_total_relation_size('jx_j')) j;
drop table jx_src, jx_b, jx_j, jx_t;
