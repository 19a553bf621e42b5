import { randomBytes, randomInt } from "node:crypto";
import { hash } from "@node-rs/argon2";
import type { Insertable, Kysely, Selectable, Transaction } from "kysely";
import type { LanguageCode } from "../../protocol/languages";
import { ResultCode } from "../../protocol/result-codes";
import { Refusal } from "../locales/refusal";
import type { Database, MemberTable } from "../store/schema";

/** Where a member is reached and how they log in: an e-mail address, or a phone number with its area code. */
export type MemberAccount = { email: string } | { areaCode: string; phone: string };

/** What a new member is made of; every way in (registration, the demo member, bots, bench members) says it this way. */
export interface NewMember {
  account: MemberAccount;
  /** The login password, stored as an argon2id hash; null: nobody can log in as this member (bots, bench members). */
  password: string | null;
  tradePassword?: string;
  /** Default: a random 8-digit uid (drawn again if it is taken). */
  uid?: string;
  /** Default: 8 random characters of INVITE_ALPHABET (drawn again if taken). */
  inviteCode?: string;
  invitedBy?: string | null;
  /** The language of the member's mails (the registration request's); default English. */
  lang?: LanguageCode;
}

/** Invite codes avoid letters and digits that read alike (0/O, 1/I). */
const INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/**
 * The hash of a password nobody was ever told: members that must not log in get it, so a login
 * attempt is refused like any wrong password. One per process: hashing is slow on purpose, and
 * the bench makes thousands of members.
 */
let unusableHash: Promise<string> | undefined;
const hashOfUnknownPassword = () => (unusableHash ??= hash(randomBytes(32).toString("base64url")));

/**
 * Creates a member: the one way in, for registration, the demo member, the simulator's bots and
 * the bench's members. A clash of a random uid or invite code draws again (up to 5 times); a
 * clash of the account (a concurrent registration) is refused as taken.
 */
export async function createMember(db: Kysely<Database>, member: NewMember, now: number): Promise<{ id: string; uid: string }> {
  const hashes = await passwordHashes(member);
  for (let attempt = 0; ; attempt++) {
    try {
      return await db
        .insertInto("member")
        .values(memberRow(member, hashes, now))
        .returning(["id", "uid"])
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (await memberOfAccount(db, member.account)) throw Refusal.of(ResultCode.CONFLICT, "errors.account_taken");
      if (attempt === 4 || (member.uid && member.inviteCode)) throw error;
    }
  }
}

/** Creates many members with one insert (the bench); each names its uid and invite code, so nothing is drawn again. */
export async function createMembers(db: Kysely<Database>, members: NewMember[], now: number): Promise<Array<{ id: string; uid: string }>> {
  const rows = await Promise.all(members.map(async (m) => memberRow(m, await passwordHashes(m), now)));
  return db.insertInto("member").values(rows).returning(["id", "uid"]).execute();
}

/** The member of an e-mail address or of a phone number, if any. */
export async function memberOfAccount(
  db: Kysely<Database> | Transaction<Database>,
  account: { email?: string; areaCode?: string; phone?: string },
): Promise<Selectable<MemberTable> | undefined> {
  if (account.email) return db.selectFrom("member").selectAll().where("email", "=", account.email).executeTakeFirst();
  if (account.areaCode && account.phone) {
    return db.selectFrom("member").selectAll().where("area_code", "=", account.areaCode).where("phone", "=", account.phone).executeTakeFirst();
  }
  return undefined;
}

/** The password hashes of a new member (argon2id, the library's defaults). */
async function passwordHashes(member: NewMember): Promise<{ password: string; trade: string | null }> {
  const [password, trade] = await Promise.all([
    member.password === null ? hashOfUnknownPassword() : hash(member.password),
    member.tradePassword ? hash(member.tradePassword) : null,
  ]);
  return { password, trade };
}

/** The member row, with fresh random uid and invite code where none is given. */
function memberRow(member: NewMember, hashes: { password: string; trade: string | null }, now: number): Insertable<MemberTable> {
  const account = member.account;
  return {
    uid: member.uid ?? String(randomInt(10_000_000, 99_999_999)),
    email: "email" in account ? account.email : null,
    area_code: "areaCode" in account ? account.areaCode : null,
    phone: "areaCode" in account ? account.phone : null,
    password_hash: hashes.password,
    trade_password_hash: hashes.trade,
    invite_code: member.inviteCode ?? Array.from({ length: 8 }, () => INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)]).join(""),
    invited_by: member.invitedBy ?? null,
    lang: member.lang ?? null,
    chat_key: randomBytes(16).toString("hex"),
    created_at: new Date(now),
    password_changed_at: new Date(now),
  };
}

/** The account named by a request's `accountType` and fields (the protocol has checked they are there). */
export function accountOf(fields: { accountType: "email" | "phone"; email?: string; areaCode?: string; phone?: string }): MemberAccount {
  return fields.accountType === "email" ? { email: fields.email! } : { areaCode: fields.areaCode!, phone: fields.phone! };
}
