/**
 * The lexicon's hand lists. Each is short and says why it exists; they are part of the lexicon's source, beside the
 * public word lists read by sources.ts (see data/lexicon/SOURCES.md).
 */

/**
 * English function words. Deliberately no content words: "always", "next", "off" are left out because they are
 * also brands that a title can name on their own (ALWAYS pads, NEXT, OFF! repellent).
 */
export const ENGLISH_STOPWORDS = `
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
export const CHINESE_STOPWORDS = `
的 和 与 及 或 在 是 了 于 用 带 含 个 件 套 只 双 对 把 被 也 都 就 很 更 最 等 及其 以及 并且 或者 还是 一个 一件 一套
适用于 适用 兼容 用于 适配 包邮 现货 热卖 爆款 特价 促销 正品 官方 旗舰店 同款 专柜 限时
`;

/**
 * Units, sizes and quantity words as they appear in titles. A number glued to one of these ("2pcs", "500ml", "10inch")
 * is recognised at run time, so the units are listed once here.
 */
export const UNITS = `
mm cm cms dm m mtr mtrs km in inch inches ft feet foot sqft yd yard yards mi mile miles
mg g gms gr grm gram grams kg kgs kilo kilos lb lbs pound pounds oz ounce ounces ct cts carat carats
ml mls cl dl l ltr ltrs liter liters litre litres gal gallon gallons qt quart quarts pt pint pints floz fl tsp tbsp cup cups
pc pcs piece pieces pk pck pack packs package packages set sets pair pairs pr prs count counts ea each dozen doz
roll rolls sheet sheets box boxes bag bags bottle bottles can cans lot lots bundle bundles kit kits unit units
xxs xs s sm m md med l xl xxl xxxl xxxxl 2xl 3xl 4xl 5xl 6xl 1x 2x 3x 4x 5x os osfa
mah ah wh v vac vdc w kw hz khz mhz ghz db dbm rpm psi bar lm lux k mp mpx fps gb tb mb kb gbps mbps ppi dpi
ohm ohms amp amps a ma nm c f deg degree degrees sec second seconds min minute minutes hr hrs hour hours
day days week weeks month months year years yr yrs p
厘米 毫米 米 英寸 寸 克 千克 公斤 斤 毫升 升 码 件 个 只 双 套 片 条 瓶 盒 张 支 台 对 包 袋 粒
`;

/**
 * Units that are also the names of makers (HP, GM, C.C): a unit only straight after a number ("1.5 HP Motor",
 * "Soap 75 gm", "150cc"), a name anywhere else ("HP Laptop", "GM Car Cover"). Read in context at run time
 * (shared/screening/title-words.ts), so they are not in UNITS.
 */
export const UNITS_AFTER_NUMBER = `
hp bhp gm cc
`;

/** Technology and standard names used descriptively in almost every electronics title; see SOURCES.md. */
export const DESCRIPTIVE_STANDARDS = `
bluetooth wireless wifi wi fi usb usbc hdmi nfc led leds lcd oled amoled qled uv ir rgb rgbw 4g 5g lte gps
aux rca dc ac type typec lightning qi magnetic smart digital analog hd uhd fhd 4k 8k 1080p 720p 2k tv pc
`;

/** Everyday descriptors of listing titles that the taxonomy values miss. */
export const TITLE_DESCRIPTORS = `
new newest latest upgraded upgrade premium professional pro portable adjustable foldable rechargeable waterproof
water resistant durable heavy duty lightweight compact mini micro nano large small medium big extra super ultra thin slim
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
export const TRADE_NAMES_IN_SOURCES = `
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
export const COMMON_GIVEN_NAMES = `
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
export const CHINESE_GENERIC = `
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
export const CHINESE_PRODUCT_CLASSES: Record<string, string> = {
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
export const HAND_PRODUCT_CLASSES: Record<string, string> = {
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
export const SOUTH_ASIAN_PRODUCT_CLASSES: Record<string, string> = {
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
 * Sport clothing and footwear: the taxonomy files "Soccer Shoes" under Sporting Goods, the Nice classification puts
 * them in class 25 with all clothing (sports gloves and protective gear stay in 28).
 */
export const CLOTHING_HEADS = new Set(
  `shoe boot cleat sneaker sock pant short shirt jersey vest jacket apparel clothing uniform legging tight drysuit
   wetsuit swimsuit cap hat dress skirt top hoodie`
    .split(/\s+/)
    .filter(Boolean),
);

/** Who a product is for ("Kids' Suitcases"): a descriptor, never the product. */
export const AUDIENCE_WORDS = new Set(
  `kid child children boy girl baby babies toddler infant men man mens women woman womens lady ladies adult unisex
   teen youth junior senior pet dog cat`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Words that name no product on their own ("Phone Accessories", "apparatus for games"): never a head noun; the
 * word before them is taken instead when there is one.
 */
export const UNINFORMATIVE_HEADS = new Set(
  `accessories accessory apparatus appliances articles assortment component components device devices equipment
   fittings goods installations instruments items kits kit machines material materials parts part pieces products
   product sets set supplies systems system tools utensils units other others preparations substances
   things stuff essentials items collection collections`
    .split(/\s+/)
    .filter(Boolean),
);
