import { sql, type Kysely } from "kysely";

/**
 * The home page's subtitle promised contracts up to 100x, staking and new-coin subscriptions,
 * which do not exist yet (issue 14: no page promises what the product cannot do). It was seeded as
 * an operator text overriding the shipped locale files; the seed no longer writes it, and this
 * removes the seeded rows where they are still as seeded, so the shipped subtitle (which names no
 * product) shows. A subtitle an operator wrote stays.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    delete from lang_entry
    where label = 'home.hero.subtitle'
      and text in (
      'Spot, contracts up to 100x, staking up to 18% a year and new-coin subscriptions, on one account.',
      '现货、最高 100 倍合约、年化最高 18% 的质押与新币申购，一个账户全部搞定。',
      '現貨、最高 100 倍合約、年化最高 18% 的質押與新幣申購，一個帳戶全部搞定。',
      '현물, 최대 100배 선물, 연 최대 18% 스테이킹과 신규 코인 청약을 하나의 계정으로.',
      '現物、最大100倍の先物、年利最大18%のステーキング、新規コインの申込をひとつのアカウントで。',
      'Spot, contratos de hasta 100x, staking de hasta un 18 % anual y suscripciones a nuevas monedas en una sola cuenta.',
      'Spot, Kontrakte bis 100x, Staking mit bis zu 18 % pro Jahr und Zeichnungen neuer Coins – mit einem Konto.',
      'Spot, contrats jusqu''à 100x, staking jusqu''à 18 % par an et souscriptions aux nouveaux coins, sur un seul compte.',
      'Spot, 100x''e kadar kontratlar, yıllık %18''e varan staking ve yeni coin talepleri tek hesapta.'
    )`.execute(db);
}

export async function down(): Promise<void> {
  // The promises are not put back.
}
