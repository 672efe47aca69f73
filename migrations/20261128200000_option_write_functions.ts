import type { Knex } from 'knex';

/*
 * Issue 40: an option write is one call to the database. These functions hold the field editor's edit rule
 * (the one definition: the TypeScript readers call `ap_grants_reaching` and `ap_grant_covers` too) and the
 * two steps every option write starts with, `ap_lock_and_decide`; `ap_option_create`, `_update` and `_move` are
 * whole writes, each one call of the database (and so one transaction of its own).
 *
 * Refusals are raised with SQLSTATEs of class AP (`refusalOf` in src/fieldeditor/options/option-writer.ts and
 * `decisionRefusal` in src/fieldeditor/access/write-decision.repository.ts map them to the documented answers);
 * anything raised rolls the whole call back.
 */
const FUNCTIONS = String.raw`
-- THE edit rule, part 1: the grants that reach a user, granted to its name (its lower-case key) or to one of
-- its groups. Inlined by the planner into the statements that call it.
create or replace function ap_grants_reaching(p_user_id int, p_user_key text) returns setof field_grants
language sql stable as $$
  select g.* from field_grants g
   where (g.principal_type = 'user' and g.principal_key = p_user_key)
      or (g.principal_type = 'group' and g.principal_key in (
            select gr.name_key from group_members gm join groups gr on gr.id = gm.group_id where gm.user_id = p_user_id))
$$;

-- THE edit rule, part 2: a grant covers a context when it is global (no context) or on that context.
create or replace function ap_grant_covers(p_grant_context int, p_context int) returns boolean
language sql immutable as $$ select p_grant_context is null or p_grant_context = p_context $$;

-- The first two steps of every option write, in this order: the lock of the sibling list (its row in
-- field_option_lists, created on first use; its version counts the writes), then the caller's right, decided in
-- a statement of its own, i.e. in a snapshot taken once the lock is held, with the grant and membership rows it
-- rests on taken FOR SHARE: a revocation that committed while the write waited is seen, one that comes later
-- waits until the write has committed. p_context null: the field's default context.
create or replace function ap_lock_and_decide(p_field int, p_context int, p_parent int, p_user_id int, p_user_key text)
returns table (f_id int, f_name text, f_description text, f_type_key text,
               c_id int, c_field_id int, c_name text, c_description text, c_is_default boolean)
language plpgsql as $$
declare
  v_locked int;
  v_any boolean;
  v_may boolean;
  f record;
  c record;
begin
  insert into field_option_lists as l (context_id, parent_key, version)
    select x.id, coalesce(p_parent, 0), 1 from field_contexts x
     where x.field_id = p_field and (case when p_context is null then x.is_default else x.id = p_context end)
  on conflict (context_id, parent_key) do update set version = l.version + 1
  returning l.context_id into v_locked;

  perform 1 from group_members gm where gm.user_id = p_user_id for share;
  select cf.id, cf.name, cf.description, cf.type_key into f from custom_fields cf where cf.id = p_field;
  if not found then raise exception using errcode = 'AP002', message = 'field not found'; end if;
  select x.id, x.field_id, x.name, x.description, x.is_default into c from field_contexts x
   where x.field_id = p_field and (case when p_context is null then x.is_default else x.id = p_context end);
  select count(*) > 0, coalesce(bool_or(ap_grant_covers(g.context_id, c.id)), false) into v_any, v_may
    from (select g.context_id from field_grants g
           where g.field_id = p_field and g.id in (select r.id from ap_grants_reaching(p_user_id, p_user_key) r)
             for share) g;
  if not v_any then raise exception using errcode = 'AP001', message = 'no grant on the field'; end if;
  -- No context, or one created after the lock statement found none (nothing is locked): as it was at the lock.
  if c.id is null or v_locked is distinct from c.id then
    raise exception using errcode = 'AP404', message = 'no such context';
  end if;
  if not v_may then raise exception using errcode = 'AP001', message = 'no grant on the context'; end if;
  return query select f.id, f.name::text, f.description::text, f.type_key::text,
                      c.id, c.field_id, c.name::text, c.description::text, c.is_default;
end $$;

-- The steps before an option write's first row, after lock and right: the field's type (p_types: the type keys
-- whose fields have such a list; AP400) and the parent of a child list (AP405 not found; AP406 a child option of a
-- field whose children have none: p_multi_level is the one type whose children may have children).
create or replace function ap_option_list(p_field int, p_context int, p_parent int, p_user_id int, p_user_key text,
                                          p_types text[], p_multi_level text)
returns table (f_id int, f_type_key text, c_id int)
language plpgsql as $$
declare
  s record;
  v_grandparent int;
begin
  select * into s from ap_lock_and_decide(p_field, p_context, p_parent, p_user_id, p_user_key);
  if not (s.f_type_key = any(p_types)) then
    raise exception using errcode = 'AP400', message = 'field type without such a list', detail = s.f_type_key;
  end if;
  if p_parent is not null then
    select x.parent_id into v_grandparent from field_options x where x.id = p_parent and x.context_id = s.c_id for key share;
    if not found then raise exception using errcode = 'AP405', message = 'parent not found', detail = p_parent::text; end if;
    if v_grandparent is not null and s.f_type_key <> p_multi_level then
      raise exception using errcode = 'AP406', message = 'the parent is a child option', detail = p_parent::text;
    end if;
  end if;
  return query select s.f_id, s.f_type_key, s.c_id;
end $$;

-- An option of the locked list: AP410 when the context has no such option, AP411 when it is in another list.
create or replace function ap_option_in_list(p_context int, p_parent int, p_id int) returns field_options
language plpgsql as $$
declare
  o field_options;
begin
  select * into o from field_options x where x.id = p_id and x.context_id = p_context;
  if not found then raise exception using errcode = 'AP410', message = 'option not found', detail = p_id::text; end if;
  if coalesce(o.parent_id, 0) <> coalesce(p_parent, 0) then
    raise exception using errcode = 'AP411', message = 'option of another list', detail = p_id::text;
  end if;
  return o;
end $$;

-- The options of one sibling list (the top level: p_parent null). Inlined by the planner into the statements
-- that call it, where field_options_sibling_order serves it.
create or replace function ap_siblings(p_context int, p_parent int) returns setof field_options
language sql stable as $$
  select * from field_options y where y.context_id = p_context and coalesce(y.parent_id, 0) = coalesce(p_parent, 0)
$$;

-- An option as answers and event-log entries show it, at rank p_sequence, with its parent.
create or replace function ap_option_json(o field_options, p_sequence int) returns jsonb
language sql immutable as $$
  select jsonb_build_object('optionvalue', o.value, 'id', o.id, 'sequence', p_sequence, 'disabled', o.disabled, 'parentId', o.parent_id)
$$;

-- The rank of position p_position (and id p_id) among the options of a list other than p_id.
create or replace function ap_option_rank(p_context int, p_parent int, p_id int, p_position bigint) returns int
language sql stable as $$
  select count(*)::int from ap_siblings(p_context, p_parent) y
   where y.id <> p_id and (y.position < p_position or (y.position = p_position and y.id < p_id))
$$;

-- The end of every write of one option o, at rank p_n (p_before: the option before, null for a create): its
-- event-log entry (p_log false: none, for a benchmark only) and the announcement of the change to the other nodes
-- (null payload: none; delivered when the call commits). Answers the option, its rank and the listening nodes,
-- which the caller waits for.
create or replace function ap_option_written(p_log boolean, p_actor text, p_kind text, o field_options, p_n int, p_before jsonb,
                                             p_notify_channel text, p_notify_payload text, p_listener text)
returns table (id int, value text, disabled boolean, n int, listeners int)
language plpgsql as $$
begin
  if p_log then
    insert into event_log (actor, actor_key, kind, field_id, context_id, target, before, after)
    values (p_actor, lower(p_actor), p_kind, o.field_id, o.context_id,
            jsonb_build_object('type', case when o.parent_id is null then 'option' else 'childOption' end, 'id', o.id, 'parentId', o.parent_id),
            p_before, ap_option_json(o, p_n));
  end if;
  if p_notify_payload is not null then perform pg_notify(p_notify_channel, p_notify_payload); end if;
  return query select o.id, o.value::text, o.disabled, p_n, case when p_notify_payload is null then 0 else
    (select count(*)::int from pg_stat_activity a where a.application_name = p_listener and a.datname = current_database()) end;
end $$;

-- A whole create: the row at the end of the list (p_gap after the last position; the list is read once, for its
-- size, which is the new option's rank, and its last position), logged and announced.
create or replace function ap_option_create(
  p_field int, p_context int, p_parent int, p_user_id int, p_user_key text, p_actor text, p_types text[], p_multi_level text,
  p_log boolean, p_notify_channel text, p_notify_payload text, p_listener text,
  p_value text, p_value_key text, p_disabled boolean, p_gap bigint)
returns table (id int, value text, disabled boolean, n int, listeners int)
language plpgsql as $$
declare
  s record;
  o field_options;
  v_n int;
  v_last bigint;
begin
  select * into s from ap_option_list(p_field, p_context, p_parent, p_user_id, p_user_key, p_types, p_multi_level);
  select count(*)::int, max(y.position) into v_n, v_last from ap_siblings(s.c_id, p_parent) y;
  insert into field_options (field_id, context_id, parent_id, value, value_key, position, disabled)
  values (s.f_id, s.c_id, p_parent, p_value, p_value_key, coalesce(v_last + p_gap, 0), p_disabled)
  returning * into o;
  return query select * from ap_option_written(p_log, p_actor, 'option.created', o, v_n, null, p_notify_channel, p_notify_payload, p_listener);
end $$;

-- A rename and/or (dis)enabling (a null value or flag stays as it is), logged by what actually changed.
create or replace function ap_option_update(
  p_field int, p_context int, p_parent int, p_user_id int, p_user_key text, p_actor text, p_types text[], p_multi_level text,
  p_log boolean, p_notify_channel text, p_notify_payload text, p_listener text,
  p_id int, p_value text, p_value_key text, p_disabled boolean)
returns table (id int, value text, disabled boolean, n int, listeners int)
language plpgsql as $$
declare
  s record;
  b field_options;
  o field_options;
  v_n int;
  v_kind text := 'option.updated';
begin
  select * into s from ap_option_list(p_field, p_context, p_parent, p_user_id, p_user_key, p_types, p_multi_level);
  b := ap_option_in_list(s.c_id, p_parent, p_id);
  update field_options x set value = coalesce(p_value, x.value), value_key = coalesce(p_value_key, x.value_key),
                             disabled = coalesce(p_disabled, x.disabled)
   where x.id = p_id returning * into o;
  v_n := ap_option_rank(s.c_id, p_parent, p_id, o.position);
  if o.value <> b.value and o.disabled = b.disabled then v_kind := 'option.renamed';
  elsif o.disabled <> b.disabled and o.value = b.value then v_kind := case when o.disabled then 'option.disabled' else 'option.enabled' end;
  end if;
  return query select * from ap_option_written(p_log, p_actor, v_kind, o, v_n, ap_option_json(b, v_n),
                                               p_notify_channel, p_notify_payload, p_listener);
end $$;

-- A move first (p_after null) or right after the sibling p_after (AP412 when it is no sibling), midway to the
-- next sibling; the list is renumbered (gaps of p_gap) when no integer is left between the two. After itself:
-- nothing changes, and it is logged as a move in place.
create or replace function ap_option_move(
  p_field int, p_context int, p_parent int, p_user_id int, p_user_key text, p_actor text, p_types text[], p_multi_level text,
  p_log boolean, p_notify_channel text, p_notify_payload text, p_listener text,
  p_id int, p_after int, p_gap bigint)
returns table (id int, value text, disabled boolean, n int, listeners int)
language plpgsql as $$
declare
  s record;
  b field_options;
  o field_options;
  v_before int;
  v_target bigint;
  v_next bigint;
  v_pos bigint;
begin
  select * into s from ap_option_list(p_field, p_context, p_parent, p_user_id, p_user_key, p_types, p_multi_level);
  b := ap_option_in_list(s.c_id, p_parent, p_id);
  v_before := ap_option_rank(s.c_id, p_parent, p_id, b.position);
  if p_after is not null then
    select x.position into v_target from ap_siblings(s.c_id, p_parent) x where x.id = p_after;
    if not found then raise exception using errcode = 'AP412', message = 'not a sibling', detail = p_after::text; end if;
  end if;
  o := b;
  if p_after is distinct from p_id then
    for attempt in 1..2 loop
      if p_after is null then
        select coalesce(min(y.position) - p_gap, 0) into v_pos from ap_siblings(s.c_id, p_parent) y where y.id <> p_id;
      else
        select min(y.position) into v_next from ap_siblings(s.c_id, p_parent) y where y.id <> p_id and y.position > v_target;
        v_pos := case when v_next is null then v_target + p_gap when v_next - v_target >= 2 then v_target + (v_next - v_target) / 2 end;
      end if;
      exit when v_pos is not null;
      -- No gap left: spread the list out again (the order, and so the ranks, stay as they were).
      update field_options x set position = (r.rn - 1) * p_gap
        from (select y.id, row_number() over (order by y.position, y.id) as rn from ap_siblings(s.c_id, p_parent) y) r
       where x.id = r.id;
      select x.position into v_target from field_options x where x.id = p_after;
    end loop;
    if v_pos is null then raise exception 'no position after renumbering'; end if;
    update field_options x set position = v_pos where x.id = p_id returning * into o;
  end if;
  return query select * from ap_option_written(p_log, p_actor, 'option.moved', o, ap_option_rank(s.c_id, p_parent, p_id, o.position),
                                               ap_option_json(b, v_before), p_notify_channel, p_notify_payload, p_listener);
end $$;
`;

export async function up(knex: Knex): Promise<void> {
  // One statement per call (the embedded database's driver runs one at a time).
  for (const statement of FUNCTIONS.split(/\n(?=create or replace function)/)) if (statement.trim()) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  // Every function above (a function's body is not a dependency PostgreSQL records: any order will do).
  for (const [, name] of FUNCTIONS.matchAll(/create or replace function (\w+)/g)) await knex.raw(`drop function if exists ${name} cascade`);
}
