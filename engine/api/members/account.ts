import { hash, verify } from "@node-rs/argon2";
import { sql } from "kysely";
import { endpoints } from "../../../protocol/endpoints";
import { ApiError } from "../api-error";
import type { ApiContext } from "../context";
import { engineText, requestLanguage } from "../engine-texts";
import { registerEndpoint } from "../register";
import { ResultCode } from "../../../protocol/result-codes";
import { consumeCode, findMember } from "./codes";
import { destinationOf, memberView } from "./member-view";
import { phoneFitsArea } from "./phone-rules";
import { isDemoMember, refuseDemoMember, requireMember } from "./require-member";
import { revokeSessions } from "./sessions";

/** The account center's calls; each touches only the calling member's own rows. */
export function registerAccountRoutes(context: ApiContext): void {
  const { app, apiHead, db, services } = context;

  const loadMember = (memberId: string) => db.selectFrom("member").selectAll().where("id", "=", memberId).executeTakeFirstOrThrow();

  registerEndpoint(app, apiHead, endpoints.memberInfo, async ({ request }) => {
    const { memberId } = await requireMember(db, request, services.now());
    return memberView(await loadMember(memberId), isDemoMember(services, memberId));
  });

  registerEndpoint(app, apiHead, endpoints.loginLog, async ({ query, request }) => {
    const { memberId, sessionId } = await requireMember(db, request, services.now());
    const pageNo = query.pageNo ?? 1;
    const pageSize = query.pageSize ?? 10;
    if (isDemoMember(services, memberId)) {
      // The demo login is shared by every visitor: each sees only their own login, without addresses.
      const own = await db.selectFrom("device_session").select(["id", "name", "user_agent", "created_at"]).where("id", "=", sessionId).executeTakeFirst();
      const records = own && pageNo === 1 ? [{ id: own.id, ip: "", deviceName: own.name, userAgent: own.user_agent, createdAt: new Date(own.created_at).toISOString() }] : [];
      return { records, total: own ? 1 : 0, current: pageNo, size: pageSize };
    }
    const [rows, count] = await Promise.all([
      db
        .selectFrom("login_log")
        .select(["id", "ip", "device_name", "user_agent", "created_at"])
        .where("member_id", "=", memberId)
        .orderBy("id", "desc")
        .limit(pageSize)
        .offset((pageNo - 1) * pageSize)
        .execute(),
      db.selectFrom("login_log").select(sql<number>`count(*)::int`.as("n")).where("member_id", "=", memberId).executeTakeFirstOrThrow(),
    ]);
    return {
      records: rows.map((r) => ({ id: r.id, ip: r.ip, deviceName: r.device_name, userAgent: r.user_agent, createdAt: new Date(r.created_at).toISOString() })),
      total: count.n,
      current: pageNo,
      size: pageSize,
    };
  });

  registerEndpoint(app, apiHead, endpoints.devices, async ({ request }) => {
    const { memberId, sessionId } = await requireMember(db, request, services.now());
    const rows = await db
      .selectFrom("device_session")
      .select(["id", "name", "ip", "user_agent", "created_at", "last_seen_at"])
      .where("member_id", "=", memberId)
      .where("revoked_at", "is", null)
      .where("refresh_expires_at", ">", new Date(services.now()))
      // The shared demo member: a visitor sees only their own session, without its address.
      .$if(isDemoMember(services, memberId), (q) => q.where("id", "=", sessionId))
      .orderBy("last_seen_at", "desc")
      .execute();
    const demo = isDemoMember(services, memberId);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      ip: demo ? "" : r.ip,
      userAgent: r.user_agent,
      createdAt: new Date(r.created_at).toISOString(),
      lastSeenAt: new Date(r.last_seen_at).toISOString(),
      current: r.id === sessionId,
    }));
  });

  registerEndpoint(app, apiHead, endpoints.deleteDevice, async ({ params, request }) => {
    const { memberId } = await requireMember(db, request, services.now());
    refuseDemoMember(services, memberId, request);
    const result = await db
      .updateTable("device_session")
      .set({ revoked_at: new Date(services.now()) })
      .where("id", "=", String(params.id))
      .where("member_id", "=", memberId)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw ApiError.notFound(engineText(requestLanguage(request.headers), "errors.device_unknown"));
    return null;
  });

  registerEndpoint(app, apiHead, endpoints.updateDevice, async ({ body, request }) => {
    const { memberId } = await requireMember(db, request, services.now());
    const result = await db
      .updateTable("device_session")
      .set({ name: body.name })
      .where("id", "=", String(body.id))
      .where("member_id", "=", memberId)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw ApiError.notFound(engineText(requestLanguage(request.headers), "errors.device_unknown"));
    return null;
  });

  registerEndpoint(app, apiHead, endpoints.updatePassword, async ({ body, request }) => {
    const lang = requestLanguage(request.headers);
    const now = services.now();
    const { memberId } = await requireMember(db, request, now);
    refuseDemoMember(services, memberId, request);
    const member = await loadMember(memberId);
    if (!(await verify(member.password_hash, body.oldPassword))) throw ApiError.badRequest(engineText(lang, "errors.old_password_wrong"));
    const passwordHash = await hash(body.newPassword);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable("member").set({ password_hash: passwordHash, password_changed_at: new Date(now) }).where("id", "=", memberId).execute();
      // Every session ends, this one included: old tokens stop working at once.
      await revokeSessions(trx, { memberId }, now);
    });
    return null;
  });

  registerEndpoint(app, apiHead, endpoints.tradePassword, async ({ body, request }) => {
    const lang = requestLanguage(request.headers);
    const now = services.now();
    const { memberId } = await requireMember(db, request, now);
    refuseDemoMember(services, memberId, request);
    const member = await loadMember(memberId);
    await consumeCode(db, { destination: securityDestination(member), purpose: "security", code: body.code, lang, now });
    await db.updateTable("member").set({ trade_password_hash: await hash(body.tradePassword) }).where("id", "=", memberId).execute();
    return null;
  });

  registerEndpoint(app, apiHead, endpoints.antiCode, async ({ body, request }) => {
    const lang = requestLanguage(request.headers);
    const now = services.now();
    const { memberId } = await requireMember(db, request, now);
    refuseDemoMember(services, memberId, request);
    const member = await loadMember(memberId);
    await consumeCode(db, { destination: securityDestination(member), purpose: "security", code: body.code, lang, now });
    await db.updateTable("member").set({ anti_code: body.antiCode }).where("id", "=", memberId).execute();
    return null;
  });

  registerEndpoint(app, apiHead, endpoints.bindAccount, async ({ body, request }) => {
    const lang = requestLanguage(request.headers);
    const now = services.now();
    const { memberId } = await requireMember(db, request, now);
    refuseDemoMember(services, memberId, request);
    const member = await loadMember(memberId);
    if (body.accountType === "email" ? member.email : member.phone) {
      throw new ApiError(ResultCode.CONFLICT, engineText(lang, "errors.already_bound"));
    }
    if (body.accountType === "phone" && !(await phoneFitsArea(db, body.areaCode!, body.phone!))) {
      throw ApiError.badRequest(engineText(lang, "errors.phone_invalid"));
    }
    if (await findMember(db, body)) throw new ApiError(ResultCode.CONFLICT, engineText(lang, "errors.account_taken"));
    await consumeCode(db, { destination: destinationOf(body), purpose: "bind", code: body.code, lang, now });
    try {
      await db
        .updateTable("member")
        .set(body.accountType === "email" ? { email: body.email! } : { area_code: body.areaCode!, phone: body.phone! })
        .where("id", "=", memberId)
        .execute();
    } catch {
      // A concurrent registration took it between the check and the update (unique index).
      throw new ApiError(ResultCode.CONFLICT, engineText(lang, "errors.account_taken"));
    }
    return memberView(await loadMember(memberId), isDemoMember(services, memberId));
  });

  registerEndpoint(app, apiHead, endpoints.support, async ({ request }) => {
    const { memberId } = await requireMember(db, request, services.now());
    await db.updateTable("member").set({ supported: 1 }).where("id", "=", memberId).execute();
    return { supported: 1 };
  });
}

/** Security codes go to the member's e-mail, else to the phone. */
export function securityDestination(member: { email: string | null; area_code: string | null; phone: string | null }): string {
  return member.email ?? `+${member.area_code} ${member.phone}`;
}
