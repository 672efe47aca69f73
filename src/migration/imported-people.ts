// What every import-from source does alike with the people it brings: users it creates can sign in only once an
// administrator sets a password, and this host's role groups take no members from another system.

/**
 * The stored password of an imported user. PasswordHasher only ever matches a value of the form
 * `scrypt$N$r$p$salt$hash` (six `$`-separated parts), so this one matches no password at all (and is refused
 * after a whole check, so that the refusal's time does not tell such a user exists): the user exists (content
 * names it, restrictions and grants give it rights) but cannot sign in until an administrator sets a password.
 */
export const NO_USABLE_PASSWORD = '!imported-without-password';

/**
 * The reason counted for members of a source group named like one of this host's built-in groups (users,
 * administrators, system-administrators): those carry roles here, which an import gives nobody.
 */
export const BUILTIN_MEMBERSHIPS_SKIPPED = "memberships of this host's built-in role groups (users, administrators, system-administrators): grant roles by hand";
