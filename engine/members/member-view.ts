import type { Selectable } from "kysely";
import type { MemberInfo } from "../../protocol/member";
import type { MemberTable } from "../store/schema";

export const DEFAULT_AVATAR = "/images/avatar.svg";

/**
 * The public view of a member row (spec §3 "User info"): no hashes, no secrets. `demo`: whether
 * it is the install's shared demo member (`isDemoMember`).
 */
export function memberView(row: Selectable<MemberTable>, demo: boolean): MemberInfo {
  return {
    id: row.id,
    uid: row.uid,
    email: row.email,
    areaCode: row.area_code,
    phone: row.phone,
    avatar: row.avatar ?? DEFAULT_AVATAR,
    is_merchant: row.is_merchant,
    merchant: row.is_merchant === 2 ? { id: row.id } : null,
    blade_user_id: row.id,
    chatKey: row.chat_key,
    supported: row.supported,
    inviteCode: row.invite_code,
    googleBound: row.google_secret !== null,
    tradePasswordSet: row.trade_password_hash !== null,
    antiCodeSet: row.anti_code !== null,
    createdAt: new Date(row.created_at).toISOString(),
    demo,
  };
}
