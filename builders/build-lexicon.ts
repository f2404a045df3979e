/**
 * Builds the screening lexicon, data/lexicon/lexicon.json, from the public word lists kept beside the project:
 *   npx tsx builders/build-lexicon.ts [--shared DIR] [--out FILE] [--check]
 *
 * Input (read from --shared, default ../shared next to this repository; nothing is fetched):
 *   data/lexicon/shopify-taxonomy/{categories,attribute_values}.txt   Shopify product taxonomy (MIT)
 *   data/nice/nice-classification.json                                Nice classification 10-2015 (compilation CC0)
 *   data/lexicon/dual-use-words/brand_names_that_are_generic_words.csv brand names that are dictionary words
 *   data/lexicon/wordnet-trademark-glosses/wordnet31_trademark_glosses.csv  WordNet 3.1 (WordNet licence)
 *   data/lexicon/amazon-brand-list/brands.txt                          Amazon brand filter list (MIT)
 * plus the hand lists in this file (stopwords, units, Chinese words, class tables), which are part of the source.
 * Output: one compact JSON file, deterministic (sorted, no dates), so a rebuild can be diffed against the committed
 * file (`--check` exits 1 when they differ). data/lexicon/SOURCES.md says what each part comes from and why.
 *
 * Steps:
 *   1. generic words: tokens of every Shopify category name, of the values of deliberately chosen Shopify
 *      attributes (colours, materials, sizes, patterns, shapes, styles, age groups, genders ...), of every Nice goods
 *      term, plus the hand lists; minus trade names that the sources use as materials (Teflon, Kevlar ...);
 *   2. dual-use words: the brand-names-that-are-words list, plus the WordNet trademark words and single-word Amazon-list
 *      brands that step 1 found generic;
 *   3. known trademark words: the lemmas WordNet's glosses name as trademarks or trade names;
 *   4. product word -> Nice classes: the head noun of every Nice goods term (one vote for its class) and of every
 *      Shopify category whose branch the class table below maps to a class (one vote per sibling group), plus a
 *      hand table for current product words the 2015 terms lack (earbuds ...); votes become weights per word;
 *   5. every word is normalised with the engine's normalizeText, and nouns get their singular and plural forms.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { normalizeText } from '../shared/marks/lookup-keys';
import { MODIFIER_SUFFIX, type LexiconData } from '../shared/screening/lexicon';

const ROOT = path.resolve(__dirname, '..');
export const DEFAULT_SHARED_DIR = path.resolve(ROOT, '../shared');
export const LEXICON_FILE = path.join(ROOT, 'data/lexicon/lexicon.json');

// ---------------------------------------------------------------------------------------------------------------
// Hand lists. Each is short and says why it exists.
// ---------------------------------------------------------------------------------------------------------------

/**
 * English function words. Deliberately no content words: "always", "next", "off" are left out because they are
 * also brands that a title can name on their own (ALWAYS pads, NEXT, OFF! repellent).
 */
const ENGLISH_STOPWORDS = `
a an the and or nor but if then than so as at by of on in into onto upon to from for with within without about
above below under over between among through during before after up down out per via vs versus amp
is are was were be been being am do does did has have had having will would can could shall should may might must
i me my mine we us our ours you your yours he him his she her hers it its they them their theirs
this that these those which who whom whose what where when why how there here
all any both each either neither every few more most much many other some such no not only own same too very
also just even ever yet still again further once etc ie eg incl including include includes included
`;

/**
 * Chinese function words and title filler. Single characters only where they cannot be half of a common mark:
 * 为 ("for") is left out because the word segmenter splits 华为 (Huawei) into 华|为.
 */
const CHINESE_STOPWORDS = `
的 和 与 及 或 在 是 了 于 用 带 含 个 件 套 只 双 对 把 被 也 都 就 很 更 最 等 及其 以及 并且 或者 还是 一个 一件 一套
适用于 适用 兼容 用于 适配 包邮 现货 热卖 爆款 特价 促销 正品 官方 旗舰店 同款 专柜 限时
`;

/**
 * Units, sizes and quantity words as they appear in titles. A number glued to one of these ("2pcs", "500ml", "10inch")
 * is recognised at run time, so the units are listed once here.
 */
const UNITS = `
mm cm dm m km in inch inches ft feet foot yd yard yards mi mile miles
mg g gr gram grams kg kilo kilos lb lbs pound pounds oz ounce ounces ct carat carats
ml cl dl l ltr liter liters litre litres gal gallon gallons qt quart quarts pt pint pints floz fl tsp tbsp cup cups
pc pcs piece pieces pk pck pack packs package packages set sets pair pairs pr prs count counts ea each dozen doz
roll rolls sheet sheets box boxes bag bags bottle bottles can cans lot lots bundle bundles kit kits unit units
xxs xs s sm m md med l xl xxl xxxl xxxxl 2xl 3xl 4xl 5xl 6xl 1x 2x 3x 4x 5x os osfa
mah ah wh v vac vdc w kw hz khz mhz ghz db dbm rpm psi bar lm lux k mp mpx fps gb tb mb kb gbps mbps ppi dpi
ohm ohms amp amps a ma nm c f deg degree degrees sec second seconds min minute minutes hr hrs hour hours
day days week weeks month months year years yr yrs p
厘米 毫米 米 英寸 寸 克 千克 公斤 斤 毫升 升 码 件 个 只 双 套 片 条 瓶 盒 张 支 台 对 包 袋 粒
`;

/** Technology and standard names used descriptively in almost every electronics title; see SOURCES.md. */
const DESCRIPTIVE_STANDARDS = `
bluetooth wireless wifi wi fi usb usbc hdmi nfc led leds lcd oled amoled qled uv ir rgb rgbw 4g 5g lte gps
aux rca dc ac type typec lightning qi magnetic smart digital analog hd uhd fhd 4k 8k 1080p 720p 2k tv pc
`;

/** Everyday descriptors of listing titles that the taxonomy values miss. */
const TITLE_DESCRIPTORS = `
new newest latest upgraded upgrade premium professional pro portable adjustable foldable rechargeable waterproof
water resistant durable heavy duty lightweight compact mini large small medium big extra super ultra thin slim
soft hard comfortable breathable stretch stretchy casual classic vintage retro fashion fashionable cute funny
men mens man women womens woman girls girl boys boy kids kid baby babies toddler toddlers adult adults unisex
ladies lady gents youth teen teens junior juniors infant infants
gift gifts set sets bundle combo replacement spare original genuine official authentic compatible universal
noise cancelling canceling cancellation running walking hiking training outdoor indoor home kitchen office travel
best top quality high low long short wide narrow deep round square
refurbished renewed certified preowned used
grey maroon mustard teal turquoise khaki mauve fuchsia multicolour skinny bootcut sparkle sparkling
onyx zircon polki kundan
`;

/**
 * Trade names that the taxonomy lists as materials or features (a live mark used as a word): never generic here.
 * They are known trademark words instead, so the engine still sees them.
 */
const TRADE_NAMES_IN_SOURCES = `
teflon kevlar lycra alcantara dacron vectran hypalon cordura goretex tencel corian plexiglas plexiglass styrofoam
formica airplay chromecast miracast thunderbolt firewire zigbee spandura cuben dyneema tyvek thinsulate
polartec primaloft coolmax sunbrella naugahyde lucite perspex bakelite duralumin kensington skee taylor velcro
trivex duroplast
`;

/**
 * Common given names of English-speaking countries, for telling a person's name in a title ("Victor Hugo", a writer)
 * from a brand that is one of its words. A name that is also an ordinary word, a unit or a brand word of the other
 * lists (rose, max, mark, will, ruby ...) is dropped when the lexicon is built: only words that read as names stay.
 */
const COMMON_GIVEN_NAMES = `
aaron adam adrian alan albert alex alexander alfred alice allen amanda amy andrea andrew angela anna anne anthony
antonio arthur ashley barbara ben benjamin bernard betty beverly bill billy bob bobby brandon brenda brian bruce
bryan carl carlos carol caroline catherine charles charlie charlotte cheryl chris christina christine christopher
cynthia daniel danielle david deborah debra denise dennis diana diane donald donna doris dorothy douglas dylan
edward elizabeth ellen emily emma eric ethan eugene evelyn francis frank fred frederick gary george gerald gloria
gregory hannah harold harry heather helen henry howard isabella jack jacob james jane janet janice jason jean
jeffrey jennifer jeremy jerry jessica joan joe john johnny jonathan jose joseph joshua joyce judith judy julia
julie justin karen katherine kathleen kathryn keith kelly kenneth kevin kimberly larry laura lauren lawrence linda
lisa louis louise madison margaret maria marie marilyn martha martin mary matthew megan melissa michael michelle
nancy natalie nathan nicholas nicole noah olivia oscar pamela patricia patrick paul peter philip rachel ralph
raymond rebecca richard robert roger ronald roy russell ruth ryan samantha samuel sandra sara sarah scott sean
sharon shirley sophia stephanie stephen steven susan teresa theresa thomas timothy tyler victor victoria vincent
virginia walter wayne william zachary
`;

/** Chinese product words and descriptors (hand-written: neither source has Chinese), with pieces the segmenter makes. */
const CHINESE_GENERIC = `
男 女 男士 女士 男款 女款 男式 女式 男装 女装 儿童 童 童装 宝宝 婴儿 学生 情侣 中性 成人 老人
款 新 新款 新品 韩版 时尚 休闲 运动 简约 百搭 潮流 潮 经典 复古 可爱 高档 高端 便携 迷你 家用 户外 车载 通用 专用 原装
大 小 大码 小号 中号 大号 加厚 加大 加绒 透 气 透气 防水 防滑 耐磨 轻便 舒适 保暖 宽松 修身 降 噪 降噪 无线 蓝牙 智能
夏季 冬季 春季 秋季 春秋 春夏 秋冬 夏 冬 春 秋 四季
黑色 白色 红色 蓝色 绿色 黄色 粉色 灰色 紫色 金色 银色 棕色 米色 卡其色 黑 白 红 蓝 绿 黄 粉 灰 紫 金 银 色 颜色
不锈钢 钢 塑料 纯棉 棉 真皮 皮 皮革 硅胶 木 木质 实木 金属 玻璃 陶瓷 竹 亚麻 丝绸 羊毛 尼龙 帆布
套装 礼盒 礼物 礼品 配件 替换 替换装 升级 升级版 加长 长款 短款 长袖 短袖 高 低 厚 薄
尺码 只装 包装
`;

/** Chinese product nouns with their Nice classes (hand table; the segmenter's pieces are listed too). */
const CHINESE_PRODUCT_CLASSES: Record<string, string> = {
  '09': '耳机 耳麦 手机 手机壳 壳 保护壳 保护套 手机膜 钢化膜 充电器 充电宝 移动电源 数据线 充电线 鼠标 键盘 音箱 音响 眼镜 太阳镜 墨镜 相机 平板 电脑 笔记本电脑 显示器 路由器 u盘 内存卡 手柄',
  '25': '鞋 鞋子 运动鞋 跑鞋 皮鞋 靴 靴子 凉鞋 拖鞋 高跟鞋 帆布鞋 板鞋 连衣裙 衣裙 裙 裙子 半身裙 t恤 衬衫 衬衣 裤 裤子 牛仔裤 短裤 外套 夹克 卫衣 毛衣 针织衫 袜 袜子 内衣 内裤 文胸 帽 帽子 围巾 泳衣 睡衣 上衣 衣服 服装 背心 马甲 大衣 羽绒服 风衣 西装 腰带',
  '18': '包 包包 女包 手提包 挎包 斜挎包 单肩包 背包 双肩包 钱包 卡包 行李箱 旅行箱 拉杆箱 雨伞 伞 遮阳伞',
  '14': '手表 腕表 项链 手链 手镯 戒指 耳环 耳钉 首饰 饰品 吊坠 胸针',
  '21': '杯 杯子 水杯 保温杯 马克杯 碗 盘 盘子 锅 炒锅 汤锅 锅具 厨具 牙刷 梳子 水壶 饭盒 收纳盒',
  '08': '刀 菜刀 刀具 水果刀 剪刀 切片 切片器 削皮器 刨丝器 剃须刀 指甲刀 餐具',
  '28': '玩具 积木 球 足球 篮球 哨子 口哨 游戏机 鱼竿 钓鱼竿 瑜伽垫 拼图 娃娃 公仔 毛绒玩具',
  '16': '笔 钢笔 铅笔 本子 笔记本 贴纸 文具',
  '20': '椅 椅子 桌 桌子 沙发 床 柜 柜子 枕头 镜子 衣架',
  '24': '床单 被子 被套 毛巾 浴巾 窗帘 桌布',
  '03': '口红 唇膏 化妆品 面膜 香水 洗发水 护肤品 粉底 眼影 指甲油',
  '11': '灯 台灯 吸顶灯 灯泡 手电筒 吹风机 电风扇 风扇',
  '12': '自行车 汽车 电动车 童车',
  '26': '发夹 发卡 发圈 假发',
};

/**
 * Current English product words that the 2015 Nice terms and the taxonomy lack or name otherwise
 * ("earbuds" is "earphones" in neither). Classes as the Nice alphabetical list gives for the closest term.
 */
const HAND_PRODUCT_CLASSES: Record<string, string> = {
  '09': 'earbud earphone earpiece headset smartphone smartwatch powerbank charger tablet laptop selfie webcam dashcam doorbell',
  '25': 'hoodie sweatshirt legging jogger tee tshirt sneaker trainer beanie bodysuit romper jumpsuit blazer tracksuit dungaree',
  '18': 'crossbody tote backpack fanny clutch',
  '08': 'corer peeler',
  '21': 'tumbler',
  '28': 'whistle',
  // Book formats: the taxonomy has them only as values of "Book cover type".
  '16': 'hardcover hardback paperback',
};

/**
 * South Asian product names, as titles on Indian marketplaces write them: the taxonomy and the Nice terms name the
 * same goods otherwise (a kurta is a tunic, a kadhai a wok, a showpiece a figurine), so without them a title such
 * as "Royal Men's Kurta and Churidar Set" names no product at all. Classes as for the goods they are.
 */
const SOUTH_ASIAN_PRODUCT_CLASSES: Record<string, string> = {
  '25': `kurta kurti saree sari churidar salwar shalwar kameez dupatta lehenga sherwani dhoti lungi palazzo nighty
         jutti mojari chappal trackpant windcheater nightsuit innerwear`,
  '14': 'bangle mangalsutra jhumka jhumki payal',
  '21': 'kadhai kadai tawa handi tiffin lunchbox',
  '20': 'showpiece',
  '24': 'bedsheet dohar razai',
  '27': 'dhurrie durrie',
  '03': 'kajal sindoor',
};

/**
 * Words that name no product on their own ("Phone Accessories", "apparatus for games"): never a head noun; the
 * word before them is taken instead when there is one.
 */
/**
 * Sport clothing and footwear: the taxonomy files "Soccer Shoes" under Sporting Goods, the Nice classification puts
 * them in class 25 with all clothing (sports gloves and protective gear stay in 28).
 */
const CLOTHING_HEADS = new Set(
  `shoe boot cleat sneaker sock pant short shirt jersey vest jacket apparel clothing uniform legging tight drysuit
   wetsuit swimsuit cap hat dress skirt top hoodie`.split(/\s+/).filter(Boolean),
);

/** Who a product is for ("Kids' Suitcases"): a descriptor, never the product. */
const AUDIENCE_WORDS = new Set(
  `kid child children boy girl baby babies toddler infant men man mens women woman womens lady ladies adult unisex
   teen youth junior senior pet dog cat`.split(/\s+/).filter(Boolean),
);

const UNINFORMATIVE_HEADS = new Set(
  `accessories accessory apparatus appliances articles assortment component components device devices equipment
   fittings goods installations instruments items kits kit machines material materials parts part pieces products
   product sets set supplies systems system tools utensils units other others preparations substances
   things stuff essentials items collection collections`.split(/\s+/).filter(Boolean),
);

/**
 * Shopify branches mapped to the Nice class most of their products fall in (longest prefix wins; null = too mixed
 * to say, no vote). Kept to branches where the mapping holds for nearly every leaf; see SOURCES.md.
 */
const SHOPIFY_BRANCH_CLASSES: Record<string, string | null> = {
  'Animals & Pet Supplies > Live Animals': '31',
  'Apparel & Accessories > Clothing': '25',
  'Apparel & Accessories > Clothing Accessories': '25',
  'Apparel & Accessories > Clothing Accessories > Sunglasses': '09',
  'Apparel & Accessories > Clothing Accessories > Hair Accessories': '26',
  'Apparel & Accessories > Clothing Accessories > Cufflinks': '14',
  'Apparel & Accessories > Clothing Accessories > Tie Clips': '14',
  'Apparel & Accessories > Clothing Accessories > Pinback Buttons': '26',
  'Apparel & Accessories > Clothing Accessories > Decorative Fans': null,
  'Apparel & Accessories > Costumes & Accessories': '25',
  'Apparel & Accessories > Handbags, Wallets & Cases': '18',
  'Apparel & Accessories > Jewelry': '14',
  'Apparel & Accessories > Jewelry > Smart Watches': '09',
  'Apparel & Accessories > Shoe Accessories': '25',
  'Apparel & Accessories > Shoes': '25',
  'Arts & Entertainment > Hobbies & Creative Arts > Musical Instruments': '15',
  'Arts & Entertainment > Hobbies & Creative Arts > Musical Instrument & Orchestra Accessories': '15',
  'Arts & Entertainment > Party & Celebration > Party Supplies': '28',
  'Baby & Toddler > Baby Toys & Activity Equipment': '28',
  'Baby & Toddler > Baby Transport': '12',
  'Cameras & Optics': '09',
  'Electronics': '09',
  'Electronics > Arcade Equipment': '28',
  'Electronics > Video Game Consoles': '28',
  'Electronics > Video Game Console Accessories': '28',
  'Food, Beverages & Tobacco > Beverages': '32',
  'Food, Beverages & Tobacco > Beverages > Alcoholic Beverages': '33',
  'Food, Beverages & Tobacco > Beverages > Coffee': '30',
  'Food, Beverages & Tobacco > Beverages > Tea & Infusions': '30',
  'Food, Beverages & Tobacco > Beverages > Hot Chocolate': '30',
  'Food, Beverages & Tobacco > Beverages > Milk': '29',
  'Food, Beverages & Tobacco > Beverages > Buttermilk': '29',
  'Food, Beverages & Tobacco > Food Items > Bakery': '30',
  'Food, Beverages & Tobacco > Food Items > Candy & Chocolate': '30',
  'Food, Beverages & Tobacco > Food Items > Condiments & Sauces': '30',
  'Food, Beverages & Tobacco > Food Items > Dairy Products': '29',
  'Food, Beverages & Tobacco > Food Items > Fruits & Vegetables': '31',
  'Food, Beverages & Tobacco > Food Items > Grains, Rice & Cereal': '30',
  'Food, Beverages & Tobacco > Food Items > Meat, Seafood & Eggs': '29',
  'Food, Beverages & Tobacco > Food Items > Nuts & Seeds': '29',
  'Food, Beverages & Tobacco > Food Items > Pasta & Noodles': '30',
  'Food, Beverages & Tobacco > Food Items > Seasonings & Spices': '30',
  'Food, Beverages & Tobacco > Food Items > Soups & Broths': '29',
  'Food, Beverages & Tobacco > Food Items > Tofu, Soy & Vegetarian Products': '29',
  'Food, Beverages & Tobacco > Tobacco Products': '34',
  'Furniture': '20',
  'Hardware > Building Materials': '19',
  'Hardware > Fuel': '04',
  'Hardware > Hardware Pumps': '07',
  'Hardware > Heating, Ventilation & Air Conditioning': '11',
  'Hardware > Locks & Keys': '06',
  'Hardware > Plumbing': '11',
  'Hardware > Power & Electrical Supplies': '09',
  'Hardware > Small Engines': '07',
  'Hardware > Tool Accessories': '08',
  'Hardware > Tools': '08',
  'Health & Beauty > Health Care > First Aid': '05',
  'Health & Beauty > Health Care > Medicine & Drugs': '05',
  'Health & Beauty > Personal Care': '03',
  'Health & Beauty > Personal Care > Back Care': '10',
  'Health & Beauty > Personal Care > Enema Kits & Supplies': '10',
  'Health & Beauty > Personal Care > Massage & Relaxation': '10',
  'Health & Beauty > Personal Care > Personal Lubricants': '05',
  'Health & Beauty > Personal Care > Feminine Sanitary Supplies': '05',
  'Health & Beauty > Personal Care > Foot Care': null,
  'Health & Beauty > Personal Care > Ear Care': null,
  'Health & Beauty > Personal Care > Oral Care': null,
  'Health & Beauty > Personal Care > Shaving & Grooming': null,
  'Health & Beauty > Personal Care > Sleeping Aids': null,
  'Health & Beauty > Personal Care > Spray Tanning Tents': null,
  'Health & Beauty > Personal Care > Tanning Beds': '11',
  'Health & Beauty > Personal Care > Tweezers': '08',
  'Health & Beauty > Personal Care > Vision Care': '09',
  'Home & Garden > Kitchen & Dining > Barware': '21',
  'Home & Garden > Kitchen & Dining > Cookware & Bakeware': '21',
  'Home & Garden > Kitchen & Dining > Food Storage': '21',
  'Home & Garden > Kitchen & Dining > Kitchen Tools & Utensils': '21',
  'Home & Garden > Kitchen & Dining > Tableware': '21',
  'Home & Garden > Lighting': '11',
  'Home & Garden > Linens & Bedding': '24',
  'Home & Garden > Parasols & Rain Umbrellas': '18',
  'Home & Garden > Plants': '31',
  'Home & Garden > Smoking Accessories': '34',
  'Luggage & Bags': '18',
  'Luggage & Bags > Laptop Bags': '09',
  'Mature > Weapons & Weapon Accessories': '13',
  'Media > Books': '16',
  'Media > Magazines & Newspapers': '16',
  'Media > Music & Sound Recordings': '09',
  'Media > Product Manuals': '16',
  'Media > Sheet Music': '16',
  'Media > Videos': '09',
  'Office Supplies': '16',
  'Office Supplies > Office Equipment': null,
  'Software': '09',
  'Sporting Goods': '28',
  'Sporting Goods > Outdoor Recreation > Boating & Water Sports': null,
  'Sporting Goods > Outdoor Recreation > Camping & Hiking': null,
  'Sporting Goods > Outdoor Recreation > Cycling': null,
  'Sporting Goods > Outdoor Recreation > Equestrian': '18',
  'Sporting Goods > Outdoor Recreation > Hunting & Shooting': null,
  'Toys & Games': '28',
  'Vehicles & Parts': '12',
  'Vehicles & Parts > Vehicle Parts & Accessories > Motor Vehicle Electronics': '09',
  'Business & Industrial > Dentistry': '10',
  'Business & Industrial > Medical': '10',
  'Business & Industrial > Work Safety Protective Gear': '09',
};

/**
 * Shopify attributes whose values are generic descriptors. Chosen by name, reviewed value by value: colours,
 * materials and fabrics, sizes, patterns, shapes, clothing and shoe styles, age groups, gender, units, seasons,
 * finishes and textures. Left out on purpose: anything naming platforms, processors, codecs, standards, compatible
 * devices or players, flavours, ingredients, themes, countries, languages and generic "features" lists, because
 * their values hold brands ("Intel [Motherboard chipset family]", "iPhone [Compatible player]", "Kensington lock").
 */
const GENERIC_ATTRIBUTE_PATTERNS: RegExp[] = [
  /^colou?r$/i,
  /^(hair|skin|printing) colou?r$/i,
  /material$/i,
  /^fabric$/i,
  /^(size|accessory size|bedding size|shoe size|ring size|cup size|diaper size)$/i,
  /^pattern$/i,
  /shape$/i,
  /^(style|item style|dress style|skirt style|boot style|sandal style|sneaker style|flat shoe style|heel shoe type|slipper style|bra style|underwear style|undershirt style|scarf\/shawl style|bag style|baby\/toddler hat style|baby\/toddler hosiery style|baby\/toddler sleepwear style|pantyhose style|one-piece style|top length type|pants length type)$/i,
  /^(neckline|sleeve length type|fit type|waist rise|toe style|heel height type|closure type|bag closure)$/i,
  /^(age group|recommended age group|infant age group|dog age group|cat age group|target gender)$/i,
  /^(units of measurement|season|occasion|dress occasion|condition|item condition|cosmetic condition|texture|finish|cosmetic finish|hardware finish)$/i,
  /^(clothing features|shoe features|activewear clothing features|swimwear features|outerwear clothing features)$/i,
];

/**
 * The attributes whose values say how a product looks or what it is made of (colours, materials, fabrics, patterns,
 * finishes, textures): a word of theirs at the head of a title describes the product rather than naming its maker.
 */
const DESCRIPTOR_ATTRIBUTE_PATTERNS: RegExp[] = [/^colou?r$/i, /material$/i, /^fabric$/i, /^pattern$/i, /finish$/i, /^texture$/i];

/** Attributes that the patterns above would take but whose values are names, not descriptors. */
const EXCLUDED_ATTRIBUTES = new Set(['Compatible filament', 'Suitable for material type']);

// ---------------------------------------------------------------------------------------------------------------
// Word forms
// ---------------------------------------------------------------------------------------------------------------

const IRREGULAR_PLURALS: Record<string, string> = {
  knife: 'knives', shelf: 'shelves', leaf: 'leaves', half: 'halves', wolf: 'wolves', loaf: 'loaves', scarf: 'scarves',
  wife: 'wives', life: 'lives', calf: 'calves', thief: 'thieves', hoof: 'hooves', man: 'men', woman: 'women',
  child: 'children', foot: 'feet', tooth: 'teeth', mouse: 'mice', goose: 'geese', person: 'people', ox: 'oxen',
  lens: 'lenses', bus: 'buses', gas: 'gases', cactus: 'cacti', fungus: 'fungi',
};
const IRREGULAR_SINGULARS: Record<string, string> = Object.fromEntries(
  Object.entries(IRREGULAR_PLURALS).map(([singular, plural]) => [plural, singular]),
);
/** Words that end in s and are not plurals, or whose plural is the same word. */
const NOT_PLURAL = new Set(
  `series species news means glasses pants shorts jeans trousers tights leggings scissors pliers tongs binoculars
   goggles headphones earphones chassis canvas atlas iris bias gas lens bus plus us this its yes less
   dress press cross glass grass brass class mass boss gloss moss chess`.split(/\s+/),
);

const LATIN_WORD = /^[a-z]+$/;

/** The singular of a Latin plural by simple English rules; undefined when the word does not look plural. */
export function singularOf(word: string): string | undefined {
  if (!LATIN_WORD.test(word) || word.length < 4) return undefined;
  if (IRREGULAR_SINGULARS[word]) return IRREGULAR_SINGULARS[word];
  if (NOT_PLURAL.has(word) || /(ss|us|is|ous|ics)$/.test(word)) return undefined;
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|sses|xes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return undefined;
}

/** The plural of a Latin singular by simple English rules. */
export function pluralOf(word: string): string | undefined {
  if (!LATIN_WORD.test(word) || word.length < 3) return undefined;
  if (IRREGULAR_PLURALS[word]) return IRREGULAR_PLURALS[word];
  if (NOT_PLURAL.has(word)) return undefined;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(ch|sh|s|x|z)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

function numberForms(word: string): string[] {
  const forms = [word];
  const singular = singularOf(word);
  const lemma = singular ?? word;
  if (singular) forms.push(singular);
  const plural = pluralOf(lemma);
  if (plural && plural !== word) forms.push(plural);
  return forms;
}

/** The words of a text after the engine's normalisation, plus the joined form of each hyphenated compound. */
function wordsOf(text: string): string[] {
  const words = normalizeText(text).split(' ').filter(Boolean);
  for (const compound of text.split(/\s+/)) {
    if (!/[-/]/.test(compound)) continue;
    const joinedForm = normalizeText(compound).replace(/ /g, '');
    if (joinedForm.length >= 4) words.push(joinedForm);
  }
  return words;
}

function listOf(block: string): string[] {
  return block
    .split(/\s+/)
    .map((word) => normalizeText(word))
    .filter(Boolean);
}

/** Digits alone never need listing: the run time recognises numbers and number+unit forms. */
function worthListing(word: string): boolean {
  return /\p{L}/u.test(word) && (word.length >= 2 || /\p{Script=Han}/u.test(word));
}

// ---------------------------------------------------------------------------------------------------------------
// Sources
// ---------------------------------------------------------------------------------------------------------------

interface NiceTerm {
  nice: string;
  description: string;
}

function readNiceGoods(sharedDir: string): NiceTerm[] {
  const file = path.join(sharedDir, 'data/nice/nice-classification.json');
  const data = JSON.parse(readFileSync(file, 'utf8')) as { goods: { number: string; description: string }[] };
  // The class is the basic number's first two digits; the file's "type" field is wrong for some classes.
  return data.goods
    .map((term) => ({ nice: term.number.slice(0, 2), description: term.description }))
    .filter((term) => /^(0[1-9]|[12]\d|3[0-4])$/.test(term.nice));
}

function readShopifyCategories(sharedDir: string): string[][] {
  const file = path.join(sharedDir, 'data/lexicon/shopify-taxonomy/categories.txt');
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('gid://'))
    .map((line) => line.slice(line.indexOf(' : ') + 3).trim().split(' > '));
}

function readShopifyAttributeValues(sharedDir: string): { value: string; attribute: string }[] {
  const file = path.join(sharedDir, 'data/lexicon/shopify-taxonomy/attribute_values.txt');
  const values: { value: string; attribute: string }[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^gid:\/\/\S+\s+: (.*) \[([^\]]+)\]$/.exec(line.trim());
    if (match) values.push({ value: match[1]!, attribute: match[2]! });
  }
  return values;
}

/** The words of the taxonomy's colour values: descriptors, never a product's head ("carbon black" is not class 1). */
function colourWordsOf(values: { value: string; attribute: string }[]): Set<string> {
  const colours = new Set<string>();
  for (const { value, attribute } of values) {
    if (/^colou?r$/i.test(attribute)) for (const word of normalizeText(value).split(' ')) if (word) colours.add(word);
  }
  return colours;
}

/** Single-word brand names of the Amazon brand list (MIT), compared after normalisation. */
function readAmazonBrandWords(sharedDir: string): Set<string> {
  const file = path.join(sharedDir, 'data/lexicon/amazon-brand-list/brands.txt');
  const words = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const normalized = normalizeText(line);
    if (normalized && !normalized.includes(' ')) words.add(normalized);
  }
  return words;
}

function readCsv(file: string): Record<string, string>[] {
  return parse(readFileSync(file, 'utf8'), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

function readDualUseTerms(sharedDir: string): string[] {
  const file = path.join(sharedDir, 'data/lexicon/dual-use-words/brand_names_that_are_generic_words.csv');
  return readCsv(file).map((row) => normalizeText(row.term ?? '')).filter(Boolean);
}

/**
 * The lemmas a WordNet gloss names as a trademark: the capitalised lemmas the gloss quotes ("acyclovir; Zovirax:
 * ... (trade name Zovirax)"), or every capitalised lemma when it quotes none ("Band Aid: trade name for ...").
 */
function readWordNetTrademarks(sharedDir: string): string[] {
  const file = path.join(sharedDir, 'data/lexicon/wordnet-trademark-glosses/wordnet31_trademark_glosses.csv');
  const marks: string[] = [];
  for (const row of readCsv(file)) {
    const lemmas = (row.lemmas ?? '').split(';').map((lemma) => lemma.trim()).filter(Boolean);
    const gloss = ` ${normalizeText(row.gloss ?? '')} `;
    // A trade name is written with a capital ("iPod", "Band Aid"); lower-case lemmas are the common names beside it
    // ("scuba", "table tennis") or words about trademarks themselves ("generic", "proprietary").
    const capitalised = lemmas.filter((lemma) => /\p{Lu}/u.test(lemma));
    const quoted = capitalised.filter((lemma) => gloss.includes(` ${normalizeText(lemma)} `));
    const named = quoted.length > 0 ? quoted : capitalised;
    for (const lemma of named) {
      const normalized = normalizeText(lemma);
      if (!normalized) continue;
      marks.push(normalized);
      if (normalized.includes(' ')) marks.push(normalized.replace(/ /g, ''));
    }
  }
  return marks;
}

// ---------------------------------------------------------------------------------------------------------------
// Head nouns and class votes
// ---------------------------------------------------------------------------------------------------------------

const NICE_CUT = / (for|of|with|used|adapted|not|other|in|made|being|to|from|against|containing|based|especially|intended|on|as|at) /;

/** The head noun of a Nice goods term: "drinking bottles for sports" -> "bottles", "disks, magnetic" -> "disks". */
export function niceHeadNoun(description: string): string | undefined {
  const main = description
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\([^)]*\)/g, ' ')
    .toLowerCase()
    .split(/[,;]/)[0]!;
  const phrase = ` ${main} `.split(NICE_CUT)[0]!;
  return headOf(normalizeText(phrase).split(' ').filter(Boolean));
}

function headOf(words: string[]): string | undefined {
  let index = words.length - 1;
  while (index >= 0 && UNINFORMATIVE_HEADS.has(words[index]!)) index--;
  const head = words[index];
  return head && LATIN_WORD.test(head) && head.length >= 3 ? head : undefined;
}

/**
 * The head nouns of a Shopify category name: one per conjunct ("Headphones & Headsets" -> both), skipping a lone
 * modifier before a longer conjunct ("Sport & Safety Whistles" -> "whistles" only).
 */
export function categoryHeadNouns(name: string): string[] {
  const parts = name
    .replace(/\([^)]*\)/g, ' ')
    .split(/\s*(?:&|,|\band\b)\s*/)
    .map((part) => normalizeText(part).split(' ').filter(Boolean))
    .filter((words) => words.length > 0);
  const heads: string[] = [];
  parts.forEach((words, index) => {
    const next = parts[index + 1];
    const loneModifier = words.length === 1 && next !== undefined && next.length > 1 && !words[0]!.endsWith('s');
    if (loneModifier) return;
    const head = headOf(words);
    if (head) heads.push(head);
  });
  return heads;
}

function branchClassOf(pathParts: string[]): string | null | undefined {
  for (let length = pathParts.length; length > 0; length--) {
    const key = pathParts.slice(0, length).join(' > ');
    if (key in SHOPIFY_BRANCH_CLASSES) return SHOPIFY_BRANCH_CLASSES[key];
  }
  return undefined;
}

/** votes[lemma][class] = number of goods terms and category sibling groups that name the lemma as their head. */
type Votes = Map<string, Map<string, number>>;

function vote(votes: Votes, word: string, nice: string, count = 1): void {
  const lemma = singularOf(word) ?? word;
  let byClass = votes.get(lemma);
  if (!byClass) votes.set(lemma, (byClass = new Map()));
  byClass.set(nice, (byClass.get(nice) ?? 0) + count);
}

/** A class below this share of a word's votes is noise ("whistles" in a firearms term); it is dropped. */
const MIN_CLASS_SHARE = 0.1;
const MAX_CLASSES_PER_WORD = 4;

/** "08:75 21:25": the classes of one word with integer percentages, strongest first, ties by class. */
function weightsOf(byClass: Map<string, number>): string {
  const total = [...byClass.values()].reduce((sum, count) => sum + count, 0);
  const kept = [...byClass.entries()]
    .filter(([, count]) => count / total >= MIN_CLASS_SHARE)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_CLASSES_PER_WORD);
  const keptTotal = kept.reduce((sum, [, count]) => sum + count, 0);
  return kept.map(([nice, count]) => `${nice}:${Math.round((100 * count) / keptTotal)}`).join(' ');
}

// ---------------------------------------------------------------------------------------------------------------
// The build
// ---------------------------------------------------------------------------------------------------------------

/** productClasses: classes ("09:60 28:40") -> the words that have exactly those weights, space-separated. */
export interface LexiconFile extends LexiconData {
  about: string;
  counts: Record<string, number>;
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const sorted = (words: Iterable<string>): string[] => [...new Set(words)].sort(byCodeUnits);

export function buildLexicon(sharedDir: string = DEFAULT_SHARED_DIR): LexiconFile {
  const niceGoods = readNiceGoods(sharedDir);
  const categories = readShopifyCategories(sharedDir);
  const attributeValues = readShopifyAttributeValues(sharedDir);
  const dualUseTerms = readDualUseTerms(sharedDir);
  const wordNetMarks = readWordNetTrademarks(sharedDir);
  const amazonBrandWords = readAmazonBrandWords(sharedDir);
  const colours = colourWordsOf(attributeValues);

  const stopwords = new Set([...listOf(ENGLISH_STOPWORDS), ...listOf(CHINESE_STOPWORDS)]);
  const units = new Set(listOf(UNITS));
  const tradeNames = new Set(listOf(TRADE_NAMES_IN_SOURCES));

  // 4. product word -> classes.
  const votes: Votes = new Map();
  for (const term of niceGoods) {
    const head = niceHeadNoun(term.description);
    if (head) vote(votes, head, term.nice);
  }
  const groups = new Set<string>();
  for (const pathParts of categories) {
    const nice = branchClassOf(pathParts);
    if (!nice) continue;
    const parent = pathParts.slice(0, -1).join(' > ');
    for (const head of categoryHeadNouns(pathParts[pathParts.length - 1]!)) {
      const lemma = singularOf(head) ?? head;
      const headClass = nice === '28' && CLOTHING_HEADS.has(lemma) ? '25' : nice;
      // One vote per sibling group: "Bb Tin Whistles", "C Tin Whistles" ... under "Tin Whistles" count once.
      const group = `${lemma}|${headClass}|${parent}`;
      if (groups.has(group)) continue;
      groups.add(group);
      vote(votes, head, headClass);
    }
  }
  for (const [nice, words] of [...Object.entries(HAND_PRODUCT_CLASSES), ...Object.entries(SOUTH_ASIAN_PRODUCT_CLASSES)]) {
    for (const word of listOf(words)) vote(votes, word, nice, 2);
  }
  const classesOfWord = new Map<string, string>();
  for (const [lemma, byClass] of votes) {
    if (stopwords.has(lemma) || tradeNames.has(lemma) || colours.has(lemma) || AUDIENCE_WORDS.has(lemma)) continue;
    const weights = weightsOf(byClass);
    for (const form of numberForms(lemma)) if (!classesOfWord.has(form)) classesOfWord.set(form, weights);
  }
  for (const [nice, words] of Object.entries(CHINESE_PRODUCT_CLASSES)) {
    for (const word of listOf(words)) {
      const previous = classesOfWord.get(word);
      classesOfWord.set(word, previous ? mergeWeights(previous, nice) : `${nice}:100`);
    }
  }

  // Product words that name what another product is for or made of in some category name ("Wine Racks", "Flower
  // Pots"): followed by another product word in a title, such a word is half of one product's name.
  const modifiers = new Set<string>();
  for (const pathParts of categories) {
    for (const part of pathParts) {
      const words = normalizeText(part).split(' ').filter(Boolean);
      for (const word of words.slice(0, -1)) for (const form of numberForms(word)) if (classesOfWord.has(form)) modifiers.add(form);
    }
  }

  // 1. generic words.
  const generic = new Set<string>();
  // Tokens of one or two letters from the sources are abbreviations in parentheses ("Gem mint (GM)", "(PS)") that
  // are brands as often as not: only the hand lists bring short words.
  const addGeneric = (word: string): void => {
    if (!worthListing(word) || (word.length <= 2 && LATIN_WORD.test(word)) || stopwords.has(word)) return;
    for (const form of numberForms(word)) generic.add(form);
  };
  for (const pathParts of categories) for (const word of wordsOf(pathParts[pathParts.length - 1]!)) addGeneric(word);
  const chosenAttributes = new Set<string>();
  for (const { value, attribute } of attributeValues) {
    if (EXCLUDED_ATTRIBUTES.has(attribute) || !GENERIC_ATTRIBUTE_PATTERNS.some((pattern) => pattern.test(attribute))) {
      continue;
    }
    chosenAttributes.add(attribute);
    for (const word of wordsOf(value)) addGeneric(word);
  }
  for (const term of niceGoods) for (const word of wordsOf(term.description)) addGeneric(word);
  for (const word of [...listOf(DESCRIPTIVE_STANDARDS), ...listOf(TITLE_DESCRIPTORS)]) {
    for (const form of numberForms(word)) generic.add(form);
  }
  for (const word of listOf(CHINESE_GENERIC)) generic.add(word);
  for (const word of tradeNames) generic.delete(word);

  // 3. known trademark words, and 2. the dual-use words (a WordNet trademark that the sources use as a word too).
  const knownTrademarks = new Set([...wordNetMarks, ...tradeNames]);
  const dualUse = new Set(dualUseTerms);
  const isWordOfSources = (word: string): boolean => generic.has(word) || classesOfWord.has(word) || units.has(word);
  for (const mark of wordNetMarks) if (isWordOfSources(mark)) dualUse.add(mark);
  // A brand of the Amazon list that the sources use as a word ("fossil", "walkers", "element") is dual-use too.
  for (const brand of amazonBrandWords) {
    if (brand.length >= 3 && LATIN_WORD.test(brand) && isWordOfSources(brand)) dualUse.add(brand);
  }

  // Descriptors: colours, materials, patterns ... and the hand-listed title descriptors and standards. Kept whole (not made
  // disjoint from `generic`): the engine asks this list on its own.
  const descriptors = new Set<string>();
  for (const { value, attribute } of attributeValues) {
    if (EXCLUDED_ATTRIBUTES.has(attribute) || !DESCRIPTOR_ATTRIBUTE_PATTERNS.some((pattern) => pattern.test(attribute))) continue;
    for (const word of wordsOf(value)) {
      if (!worthListing(word) || (word.length <= 2 && LATIN_WORD.test(word)) || stopwords.has(word)) continue;
      descriptors.add(word);
      // The adjective of a colour or material ("golden", "wooden", "woollen").
      if (LATIN_WORD.test(word)) descriptors.add(`${word}en`);
    }
  }
  for (const word of [...listOf(TITLE_DESCRIPTORS), ...listOf(DESCRIPTIVE_STANDARDS)]) for (const form of numberForms(word)) descriptors.add(form);
  for (const word of tradeNames) descriptors.delete(word);

  // Given names that read only as names.
  const givenNames = new Set<string>();
  for (const name of listOf(COMMON_GIVEN_NAMES)) {
    if (generic.has(name) || dualUse.has(name) || knownTrademarks.has(name) || classesOfWord.has(name) || units.has(name) || stopwords.has(name)) continue;
    givenNames.add(name);
  }

  // Keep the lists disjoint where one implies the other, so the file stays small: a product word, a unit or a
  // stopword is generic at run time without being listed again.
  for (const word of [...stopwords, ...units, ...classesOfWord.keys()]) generic.delete(word);

  const productClasses: Record<string, string[]> = {};
  for (const [word, weights] of classesOfWord) (productClasses[weights] ??= []).push(word);
  const productClassesJson: Record<string, string> = {};
  for (const weights of Object.keys(productClasses).sort(byCodeUnits)) {
    productClassesJson[weights] = sorted(productClasses[weights]!)
      .map((word) => (modifiers.has(word) ? `${word}${MODIFIER_SUFFIX}` : word))
      .join(' ');
  }

  const lexicon: LexiconFile = {
    about:
      'Screening lexicon, generated by builders/build-lexicon.ts; sources, licences and choices in data/lexicon/SOURCES.md.',
    counts: {
      stopwords: stopwords.size,
      units: units.size,
      generic: generic.size,
      dualUse: dualUse.size,
      knownTrademarks: knownTrademarks.size,
      productWords: classesOfWord.size,
      shopifyAttributesUsed: chosenAttributes.size,
      descriptors: descriptors.size,
      givenNames: givenNames.size,
      modifiers: modifiers.size,
    },
    stopwords: sorted(stopwords).join(' '),
    units: sorted(units).join(' '),
    generic: sorted(generic).join(' '),
    dualUse: sorted(dualUse).join(' '),
    knownTrademarks: sorted(knownTrademarks),
    productClasses: productClassesJson,
    descriptors: sorted(descriptors).join(' '),
    givenNames: sorted(givenNames).join(' '),
  };
  return lexicon;
}

/** Adds a hand-given class to computed weights: the hand class gets half the weight, the rest is scaled down. */
function mergeWeights(weights: string, nice: string): string {
  const byClass = new Map<string, number>();
  for (const entry of weights.split(' ')) {
    const [cls, weight] = entry.split(':');
    byClass.set(cls!, Number(weight) / 2);
  }
  byClass.set(nice, (byClass.get(nice) ?? 0) + 50);
  return weightsOf(byClass);
}

/** The file's text: one list or map per line, so a rebuild diffs readably and stays compact. */
export function serializeLexicon(lexicon: LexiconFile): string {
  const lines = Object.entries(lexicon).map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  return `{\n${lines.join(',\n')}\n}\n`;
}

export function attributesChosen(sharedDir: string = DEFAULT_SHARED_DIR): string[] {
  const names = new Set(readShopifyAttributeValues(sharedDir).map((value) => value.attribute));
  return [...names]
    .filter((name) => !EXCLUDED_ATTRIBUTES.has(name) && GENERIC_ATTRIBUTE_PATTERNS.some((pattern) => pattern.test(name)))
    .sort(byCodeUnits);
}

function main(): void {
  const argv = process.argv.slice(2);
  const option = (name: string): string | undefined => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const sharedDir = path.resolve(option('--shared') ?? DEFAULT_SHARED_DIR);
  const outFile = path.resolve(option('--out') ?? LEXICON_FILE);
  const text = serializeLexicon(buildLexicon(sharedDir));
  if (argv.includes('--check')) {
    const committed = readFileSync(outFile, 'utf8');
    if (committed !== text) {
      console.error(`${path.relative(ROOT, outFile)} differs from what the sources give: rebuild it.`);
      process.exit(1);
    }
    console.log(`${path.relative(ROOT, outFile)} is up to date.`);
    return;
  }
  writeFileSync(outFile, text);
  console.log(`wrote ${path.relative(ROOT, outFile)} (${Buffer.byteLength(text)} bytes)`);
}

if (require.main === module) main();
