import type { Knex } from 'knex';

/*
 * Issue 40: an option write is one call to the database. These functions hold the field editor's edit rule
 * (the one definition: the TypeScript readers call `ap_grants_reaching` and `ap_grant_covers` too) and the
 * two steps every option write starts with, `ap_lock_and_decide`; `ap_option_create` is a whole create.
 *
 * Refusals are raised with SQLSTATEs of class AP (src/fieldeditor/options/write-refusals.ts maps them to the
 * documented answers); anything raised rolls the whole call back.
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

-- A whole create: lock and right, the field's type (p_types: the type keys whose fields have such a list), the
-- parent of a child list (p_multi_level: the one type whose children may have children), the row at the end of
-- the list, its event-log entry (p_log) and the change's announcement to the other nodes (p_notify_payload,
-- null: none; it is delivered when the call commits), answering the row, its rank and the listening nodes.
create or replace function ap_option_create(
  p_field int, p_context int, p_parent int, p_user_id int, p_user_key text, p_actor text,
  p_types text[], p_multi_level text, p_value text, p_value_key text, p_disabled boolean, p_gap bigint,
  p_log boolean, p_notify_channel text, p_notify_payload text, p_listener text)
returns table (id int, field_id int, context_id int, parent_id int, value text, "position" bigint, disabled boolean,
               n int, listeners int)
language plpgsql as $$
declare
  s record;
  o record;
  v_n int;
  v_listeners int := 0;
  v_parent_of_parent int;
begin
  select * into s from ap_lock_and_decide(p_field, p_context, p_parent, p_user_id, p_user_key);
  if not (s.f_type_key = any(p_types)) then
    raise exception using errcode = 'AP400', message = 'field type without such a list', detail = s.f_type_key;
  end if;
  if p_parent is not null then
    select x.parent_id into v_parent_of_parent from field_options x where x.id = p_parent and x.context_id = s.c_id for key share;
    if not found then raise exception using errcode = 'AP405', message = 'parent not found', detail = p_parent::text; end if;
    if v_parent_of_parent is not null and s.f_type_key <> p_multi_level then
      raise exception using errcode = 'AP406', message = 'the parent is a child option', detail = p_parent::text;
    end if;
  end if;
  select count(*)::int into v_n from field_options x where x.context_id = s.c_id and coalesce(x.parent_id, 0) = coalesce(p_parent, 0);
  insert into field_options as x (field_id, context_id, parent_id, value, value_key, position, disabled)
  select s.f_id, s.c_id, p_parent, p_value, p_value_key,
         coalesce((select max(y.position) from field_options y
                    where y.context_id = s.c_id and coalesce(y.parent_id, 0) = coalesce(p_parent, 0)) + p_gap, 0),
         p_disabled
  returning x.id, x.field_id, x.context_id, x.parent_id, x.value, x.position, x.disabled into o;
  if p_log then
    insert into event_log (actor, actor_key, kind, field_id, context_id, target, before, after)
    values (p_actor, lower(p_actor), 'option.created', s.f_id, s.c_id,
            jsonb_build_object('type', case when p_parent is null then 'option' else 'childOption' end, 'id', o.id, 'parentId', p_parent),
            null,
            jsonb_build_object('optionvalue', o.value, 'id', o.id, 'sequence', v_n, 'disabled', o.disabled, 'parentId', o.parent_id));
  end if;
  if p_notify_payload is not null then
    perform pg_notify(p_notify_channel, p_notify_payload);
    select count(*)::int into v_listeners from pg_stat_activity a where a.application_name = p_listener and a.datname = current_database();
  end if;
  return query select o.id, o.field_id, o.context_id, o.parent_id, o.value::text, o.position::bigint, o.disabled, v_n, v_listeners;
end $$;
`;

export async function up(knex: Knex): Promise<void> {
  // One statement per call (the embedded database's driver runs one at a time).
  for (const statement of FUNCTIONS.split(/\n(?=create or replace function)/)) if (statement.trim()) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists ap_option_create(int, int, int, int, text, text, text[], text, text, text, boolean, bigint, boolean, text, text, text)');
  await knex.raw('drop function if exists ap_lock_and_decide(int, int, int, int, text)');
  await knex.raw('drop function if exists ap_grant_covers(int, int)');
  await knex.raw('drop function if exists ap_grants_reaching(int, text)');
}
