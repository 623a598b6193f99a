"""Words for the keys of game data (a chart's or a data file's fields), in English and Japanese,
for the game browser's generic view of a data file (``gamedata_tags.show``). Like the game data
itself, these words carry both languages here rather than in the message catalogue. A key
that is a campaign game's key is shown as the campaign game's code ("RB CG I"); any other key
with no words here as it is written, its underscores as spaces.
"""

from __future__ import annotations

from functools import cache

from campaigns.games.registry import LocalizedText, all_modules, localized

WORDS: dict[str, tuple[str, str]] = {
    "additions_per_mg_platoon_rg": ("additions per MG platoon RG", "MG小隊RGごとの追加"),
    "after_snow": ("after snow", "降雪の後"),
    "after_swamp": ("after swamp", "湿地の後"),
    "afv_hip_sides": ("sides with AFV HIP", "AFVのHIPを使える陣営"),
    "all_attackers_retreat": ("all attackers retreat", "攻撃側全ユニットの退却"),
    "all_mine_belts_may_set_up_hidden": (
        "all mine belts may set up hidden",
        "全地雷地帯の隠匿配置可",
    ),
    "allowed_terrain": ("allowed terrain", "配置可能な地形"),
    "alternative_scope": ("alternative scope", "別の適用範囲"),
    "ammo_shortage": ("ammunition shortage", "弾薬不足"),
    "applies_to": ("applies to", "適用対象"),
    "applies_to_every_cg": ("applies to every CG", "全CGに適用"),
    "at_placement": ("at placement", "配置時"),
    "attack_limits": ("attack limits", "攻撃の制限"),
    "attacker_dice": ("attacker’s dice", "攻撃側のダイス"),
    "attacker_retreat": ("attacker retreat", "攻撃側の退却"),
    "attacker_wins_if": ("attacker wins if", "攻撃側の勝利条件"),
    "axis_requires_german_attacker": (
        "Axis attack needs a German unit",
        "枢軸軍の攻撃にはドイツ軍ユニットが必要",
    ),
    "base_allowed": ("allowed base", "基本の上限"),
    "bought_in_daytime_reph": ("bought in a Daytime RePh", "昼間RePhでの購入"),
    "bought_in_full_or_pre_cg_reph": (
        "bought in a full or pre-CG RePh",
        "通常または CG開始前RePhでの購入",
    ),
    "box": ("box", "ボックス"),
    "boxes": ("boxes", "ボックス"),
    "campaign_games": ("campaign games", "キャンペーンゲーム"),
    "caps": ("caps", "上限"),
    "cg_max_excludes_initial_ob": ("CG max excludes the initial OB", "CG上限に初期OBは含まない"),
    "columns": ("columns", "列"),
    "concealment_may_enter_as_reinforcements": (
        "concealment may enter as reinforcements",
        "隠蔽は増援として進入可",
    ),
    "cost": ("cost", "コスト"),
    "cost_formula": ("cost formula", "コストの計算"),
    "cost_fraction": ("cost fraction", "コストの割合"),
    "cost_marks": ("cost marks", "コストの注記号"),
    "count": ("count", "数"),
    "cpp": ("CPP", "CPP"),
    "cumulative": ("cumulative", "累積"),
    "cumulative_rule": ("cumulative rule", "累積の規則"),
    "daily_fpp_cap": ("daily FPP cap", "1日のFPP上限"),
    "daily_infantry_company_cap": ("daily infantry company cap", "1日の歩兵中隊の上限"),
    "date": ("date", "日付"),
    "daytime_reph": ("Daytime RePh", "昼間RePh"),
    "dc_source": ("DC source", "DCの入手元"),
    "defender_dice": ("defender’s dice", "防御側のダイス"),
    "defender_retreat": ("defender retreat", "防御側の退却"),
    "defenders_never_forced_to_attack": (
        "defenders never forced to attack",
        "防御側は攻撃を強制されない",
    ),
    "depleted_table": ("depleted table", "減少戦力の表"),
    "dice_per_strength_point": ("dice per strength point", "戦力1ポイントあたりのダイス"),
    "discount_cpp": ("CPP discount", "CPPの割引"),
    "double_time": ("double time", "駆け足"),
    "dual_attack": ("Dual Attack", "両軍攻撃"),
    "dug_in": ("dug in", "埋設"),
    "dummy_cloaking_counters_max": ("dummy cloaking counters max", "ダミー隠蔽カウンターの上限"),
    "effect": ("effect", "効果"),
    "effects": ("effects", "効果"),
    "elr_change": ("ELR change", "ELRの変更"),
    "elr_exempt": ("ELR exempt", "ELRの対象外"),
    "ends_if_at_most": ("ends if at most", "以下なら終了"),
    "ends_when": ("ends when", "終了の時期"),
    "example": ("example", "例"),
    "first_choice_after_turn": ("first choice after turn", "選択できる最初のターンの後"),
    "first_turn": ("first turn", "最初のターン"),
    "flags": ("flags", "記号"),
    "footnotes": ("footnotes", "註"),
    "fpp": ("FPP", "FPP"),
    "fpp_available": ("FPP available", "使えるFPP"),
    "fpp_formula": ("FPP formula", "FPPの計算"),
    "fpp_per_factor": ("FPP per factor", "1ファクターあたりのFPP"),
    "fpp_per_m1": ("FPP per M1", "M1あたりのFPP"),
    "fpp_per_unit": ("FPP per unit", "1ユニットあたりのFPP"),
    "fpp_sources": ("FPP sources", "FPPの入手元"),
    "fraction": ("fraction", "割合"),
    "free_and_outside_limit": ("free and outside the limit", "無料で上限外"),
    "free_for": ("free for", "無料の対象"),
    "free_hip": ("free HIP", "無料のHIP"),
    "from": ("from", "から"),
    "front_line_ok": ("allowed on the front line", "前線区域に配置可"),
    "full_black_sea_fleet_within_2": (
        "full Black Sea Fleet within 2",
        "2ヘクス以内に完全戦力の黒海艦隊",
    ),
    "full_strength": ("full strength", "完全戦力"),
    "german_allowed_items": ("German allowed items", "ドイツ軍が購入できる項目"),
    "hexes_per_hit": ("hexes per hit", "損害1あたりのヘクス"),
    "hidden_mine_belt_purchase": ("hidden mine belt purchase", "隠匿地雷地帯の購入"),
    "hidden_not_in_daytime_reph": ("not hidden in a Daytime RePh", "昼間RePhでは隠匿不可"),
    "hip_limit": ("HIP limit", "HIPの上限"),
    "historical_drm": ("Historical DRM", "史的DRM"),
    "historical_drm_sign": ("Historical DRM sign", "史的DRMの符号"),
    "hit_rules": ("hit rules", "損害の規則"),
    "hits_absorbed": ("hits absorbed", "吸収される損害"),
    "hits_on": ("hits on", "命中の出目"),
    "id": ("id", "ID"),
    "idle_day": ("Idle Day", "戦闘休止日"),
    "if": ("if", "条件"),
    "includes_booby_trap_level": ("includes the booby-trap level", "ブービートラップ水準を含む"),
    "initial_day_deemed_chits": ("initial day’s deemed chits", "初日にみなされるチット"),
    "isolated_hex_only_footnote": ("isolated hexes only (footnote)", "孤立ヘクスのみ（註）"),
    "isolated_ok": ("allowed when isolated", "孤立していても可"),
    "items": ("items", "項目"),
    "known_may_set_up_hidden_if_bought_in": (
        "known ones may set up hidden if bought in",
        "購入時期によっては確認済みでも隠匿配置可",
    ),
    "later_turns": ("later turns", "以降のターン"),
    "level_steps": ("level steps", "水準の段階"),
    "light_mud": ("light mud", "軽い泥濘"),
    "limit": ("limit", "上限"),
    "losses": ("losses", "損害"),
    "lost_if_hex_no_longer_qualifies": (
        "lost if the hex no longer qualifies",
        "ヘクスが条件を満たさなくなれば失う",
    ),
    "lost_when": ("lost when", "失う時"),
    "max": ("max", "上限"),
    "max_loss": ("maximum loss", "最大の損失"),
    "max_per_cg": ("max per CG", "CGごとの上限"),
    "max_per_cg_notes": ("max per CG (notes)", "CGごとの上限（註）"),
    "max_points": ("maximum points", "最大ポイント"),
    "max_win_fraction": ("maximum win fraction", "勝利の割合の上限"),
    "meaning": ("meaning", "意味"),
    "mg_platoon_rgs": ("MG platoon RGs", "MG小隊RG"),
    "min": ("min", "下限"),
    "min_hexes_from_any_german_controlled_hex": (
        "min hexes from any German-controlled hex",
        "ドイツ軍支配ヘクスからの最小距離（ヘクス）",
    ),
    "min_hexes_from_enemy_fll": ("min hexes from the enemy FLL", "敵のFLLからの最小距離（ヘクス）"),
    "min_scenarios_completed": ("min scenarios completed", "終了したシナリオの最小数"),
    "min_step_losses_first": ("step losses first", "まずステップロス"),
    "mine_belt_any_bad_hex_loses_whole_belt": (
        "one bad hex loses the whole mine belt",
        "1ヘクスでも不適なら地雷地帯全体を失う",
    ),
    "movement_classes": ("movement classes", "移動の種別"),
    "moves_first": ("moves first", "先に移動"),
    "multi_hex_attack": ("multi-hex attack", "複数ヘクスへの攻撃"),
    "multi_terrain_hex": ("hex of several terrains", "複数地形のヘクス"),
    "must_be_controlled_by": ("must be controlled by", "支配していなければならない陣営"),
    "name": ("name", "名称"),
    "night_option": ("night option", "夜間のオプション"),
    "no_on_map_placement_in_same_reph": (
        "no on-map placement in the same RePh",
        "同じRePhでの盤上配置不可",
    ),
    "not_counted": ("not counted", "数えない"),
    "not_for": ("not for", "対象外"),
    "not_for_cloaked_reserve": ("not for cloaked reserve", "隠蔽予備には不可"),
    "not_in": ("not in", "対象外の時期"),
    "not_placed_in_purchase_reph": (
        "not placed in the purchase RePh",
        "購入したRePhでは配置しない",
    ),
    "note": ("note", "注"),
    "notes": ("notes", "注"),
    "on_map": ("on map", "盤上"),
    "only_in": ("only in", "対象の時期"),
    "or_cvp_ratio_at_least": ("or CVP ratio at least", "またはCVP比が以上"),
    "other_restrictions": ("other restrictions", "その他の制限"),
    "paid_each": ("paid each", "各々に支払う"),
    "penalties_by_continue_count": ("penalties by number of continues", "続行回数ごとのペナルティ"),
    "penalty_scope": ("penalty scope", "ペナルティの範囲"),
    "per": ("per", "ごと"),
    "per_cg_days": ("per CG days", "CG日数ごと"),
    "per_hit": ("per hit", "損害1ごと"),
    "per_item": ("per item", "項目ごと"),
    "per_squad_equivalents": ("per squad equivalents", "分隊相当ごと"),
    "per_sw": ("per SW", "SWごと"),
    "period_multiplier": ("period multiplier", "期間の倍率"),
    "period_rules": ("period rules", "期間の規則"),
    "pillbox_cost_multiplier": ("pillbox cost multiplier", "トーチカのコスト倍率"),
    "placed_in": ("placed in", "配置場所"),
    "placement": ("placement", "配置"),
    "positive": ("positive", "正の方向"),
    "printed_cost": ("printed cost", "印刷されたコスト"),
    "raise_per_purchase": ("raise per purchase", "購入ごとの上昇"),
    "recorded_hexes": ("recorded hexes", "記録するヘクス"),
    "repeat_from": ("repeat from", "繰り返しの起点"),
    "replaces": ("replaces", "置き換えるもの"),
    "result": ("result", "結果"),
    "retreat_example": ("retreat example", "退却の例"),
    "retreat_hexes": ("retreat hexes", "退却ヘクス数"),
    "rgs_without_row": ("RGs without a row", "行のないRG"),
    "ro_cg_1_second_scenario": ("RO CG I second scenario", "RO CG I の2つ目のシナリオ"),
    "roll": ("roll", "ダイス"),
    "rolled_by": ("rolled by", "ダイスを振る陣営"),
    "rounding": ("rounding", "端数処理"),
    "rows": ("rows", "行"),
    "rule": ("rule", "規則"),
    "scenario_types": ("scenario types", "シナリオの種類"),
    "sets_up_first": ("sets up first", "先に配置"),
    "shift": ("shift", "シフト"),
    "side": ("side", "陣営"),
    "soviet_holds_all_stone_locations_wins": (
        "the Soviet wins holding every Stone Location",
        "ソ連軍が全石造区域を保持すれば勝利",
    ),
    "squad_equivalents": ("squad equivalents", "分隊相当"),
    "stemmermann": ("Stemmermann Group", "ステンマーマン集団"),
    "stemmermann_sub_box": ("Stemmermann Group sub-box", "ステンマーマン集団用サブボックス"),
    "step_losses": ("step losses", "ステップロス"),
    "stone_location_net_gain": ("net Stone Location gain", "石造区域の正味の獲得数"),
    "stone_location_net_gain_ro_cg_3": (
        "net Stone Location gain (RO CG III)",
        "石造区域の正味の獲得数（RO CG III）",
    ),
    "strength_modifiers": ("strength modifiers", "戦力の修正"),
    "sum_of": ("sum of", "合計"),
    "surcharge_cpp": ("CPP surcharge", "CPPの割増"),
    "terrain": ("terrain", "地形"),
    "text": ("text", "本文"),
    "through": ("through", "まで"),
    "to": ("to", "まで"),
    "total_paid": ("total paid", "支払い合計"),
    "triggered_by": ("triggered by", "きっかけ"),
    "tunnel_exchange": ("tunnel exchange", "トンネルの交換"),
    "tunnel_exchange_allowed_in_rb": ("tunnel exchange allowed in RB", "RBではトンネルの交換可"),
    "turn": ("turn", "ターン"),
    "turns": ("turns", "ターン"),
    "type": ("type", "種類"),
    "type_marks": ("type marks", "種別の注記号"),
    "types": ("types", "種類"),
    "under_construction": ("under construction", "建設中"),
    "under_construction_ok": ("allowed under construction", "建設中でも可"),
    "unit": ("unit", "ユニット"),
    "units": ("units", "ユニット"),
    "unspent_fpp_lost": ("unspent FPP lost", "使わなかったFPPは失う"),
    "usable_as_reserve_dummy": ("usable as a reserve dummy", "予備のダミーとして使用可"),
    "value": ("value", "値"),
    "value_per_point": ("value per point", "1ポイントあたりの値"),
    "values": ("values", "値"),
    "variant_costs": ("variant costs", "別のコスト"),
    "weather": ("weather", "天候"),
    "when": ("when", "条件"),
    "worked_example": ("worked example", "例"),
    "zoc_across": ("ZOC across", "ZOCの越境"),
}


# Keys that stand as values (a modifier's or a rule's id) and are named nowhere else; a
# module's weathers are named by its data (``display.id_names``), and unit types,
# nationalities, sizes and DR terrain by the short games' words tables (``value_words``).
VALUES: dict[str, tuple[str, str]] = {
    "kerch_strait": ("Kerch Strait", "ケルチ海峡"),
    "air_points": ("air points", "航空ポイント"),
    "air_dice": ("air dice", "航空ダイス"),
    "fleet_dice": ("fleet dice", "艦隊ダイス"),
    "fleet_strength": ("fleet strength", "艦隊の戦力"),
    "hits_on": ("hits on", "命中の出目"),
    "as_attacker": ("as attacker", "攻撃側として"),
    "each_unit": ("each unit", "ユニットごと"),
    "each_unit_across": ("each unit attacking across", "越えて攻撃するユニットごと"),
    "each_armor_unit": ("each armor unit", "装甲ユニットごと"),
    "total_per_hex": ("total per hex", "ヘクスごとの合計"),
    "separate_pool": ("separate pool", "別のプール"),
    "other_terrain_in_hex": ("other terrain in the hex", "ヘクス内の他の地形"),
    "idle_day": ("Idle Day", "戦闘休止日"),
    "dual_attack": ("Dual Attack", "両軍攻撃"),
    "building_location": ("building Location", "建物区域"),
    "axis_1_mp": ("Axis units with 1 MP", "1移動ポイントの枢軸軍部隊"),
    "axis_other": ("other Axis", "その他の枢軸軍"),
    "german_infantry": ("German infantry", "ドイツ軍 歩兵"),
    "german_mountain": ("German mountain infantry", "ドイツ軍 山岳歩兵"),
    "romanian_cavalry": ("Romanian cavalry", "ルーマニア軍 騎兵"),
    "romanian_mountain": ("Romanian mountain infantry", "ルーマニア軍 山岳歩兵"),
    "romanian_infantry": ("Romanian infantry", "ルーマニア軍 歩兵"),
    "soviet_cavalry": ("Soviet cavalry", "ソ連軍 騎兵"),
    "front_line_ok": ("allowed on the front line", "前線区域に配置可"),
    "isolated_ok": ("allowed when isolated", "孤立していても可"),
    "under_construction_ok": ("allowed under construction", "建設中でも可"),
}


@cache
def _short_game_words() -> dict[str, object]:
    from campaigns.shortgames.pages.combat import DR_WORDS
    from campaigns.shortgames.units import WORDS as UNIT_WORDS

    return {**UNIT_WORDS, **DR_WORDS}


def value_words(value: str, language: str | None) -> str:
    """A key standing as a data value in ``language``; any other text as it is."""
    if value in VALUES:
        en, ja = VALUES[value]
        return localized(LocalizedText(en=en, ja=ja), language)
    words = _short_game_words().get(value)
    if words is None:
        return _campaign_game_codes().get(value) or value
    from django.utils import translation

    with translation.override(language or "en"):
        return str(words)


@cache
def _campaign_game_codes() -> dict[str, str]:
    return {cg.key: cg.code for module in all_modules() for cg in module.campaign_games}


def data_key(key: str, language: str | None) -> str:
    """A data field's key in ``language``."""
    if key in WORDS:
        en, ja = WORDS[key]
        return localized(LocalizedText(en=en, ja=ja), language)
    return _campaign_game_codes().get(key) or key.replace("_", " ")
