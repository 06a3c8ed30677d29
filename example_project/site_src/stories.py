"""The bundled news site's stories: invented for this project, any likeness is chance.

Each story is a headline, a standfirst, paragraphs and (optionally) reader comments. The
page templates in ``build_site.py`` wrap them in different layouts.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Comment:
    author: str
    when: str
    text: str


@dataclass(frozen=True)
class Story:
    slug: str
    headline: str
    standfirst: str
    byline: str
    date: str
    paragraphs: tuple[str, ...]
    caption: str = ""
    comments: tuple[Comment, ...] = field(default=())


BRIDGE = Story(
    slug="harbour-bridge-reopens",
    headline="Harbour bridge reopens after two years of repairs",
    standfirst="Cyclists and buses were first across the restored span on Monday morning, "
    "three weeks ahead of the revised schedule.",
    byline="By Maren Hollis, Transport Correspondent",
    date="2024-05-13",
    caption="The first bus crosses the restored harbour bridge shortly after six o'clock.",
    paragraphs=(
        "The Eastgate harbour bridge reopened to traffic on Monday after a two-year "
        "repair programme that replaced most of its steel deck and all of its cables. A "
        "small crowd of commuters, cyclists and engineers gathered at the northern ramp "
        "before dawn to watch the barriers come down.",
        "The first vehicle across was the number 14 bus, followed by a group of around "
        "forty cyclists who had waited since four o'clock. Several of them said the "
        "detour through the industrial estate had added half an hour to their daily "
        "journey since the closure began.",
        "City engineers found severe corrosion in the anchor chambers during a routine "
        "inspection in the spring of 2022. The bridge, which opened in 1968, was closed "
        "within a week, and the council later decided to rebuild the deck rather than "
        "patch it, a choice that raised the cost from an early estimate of 31 million to "
        "a final figure of 48 million.",
        "Deputy mayor Ilse Brandvold said the higher price bought another sixty years of "
        "service. \"We could have reopened sooner with a cheaper fix, but we would have "
        "been back here within a decade,\" she told reporters at the ramp. \"This time "
        "the work is done properly.\"",
        "The new deck carries two general traffic lanes, a bus lane in each direction and "
        "a protected cycle track on the western side. Pedestrians get a widened walkway "
        "with three viewing platforms over the shipping channel.",
        "Traffic counters will be installed later this month so that the council can "
        "measure how quickly journeys return to their old patterns. Businesses on the "
        "northern shore, which reported falling trade during the closure, have planned "
        "a street market on the bridge approach for the first weekend of June.",
    ),
    comments=(
        Comment("dockside_dan", "13 May 2024, 08:12",
                "Finally. Two years of sitting in traffic on the ring road. Well done to "
                "the crews who worked through two winters on this."),
        Comment("M. Okafor", "13 May 2024, 09:40",
                "48 million is a lot of money. I would like to see the full breakdown of "
                "where the extra 17 million went before we celebrate."),
        Comment("cyclist_jo", "13 May 2024, 10:05",
                "The new cycle track is excellent, smooth and wide. Please keep the "
                "delivery vans off it this time."),
        Comment("Harbourview resident", "13 May 2024, 12:31",
                "The night work was noisy but the crews were always polite. Glad it is "
                "over and glad it is open early."),
    ),
)

LIBRARY = Story(
    slug="library-robots",
    headline="City library lends out robots to teach children to code",
    standfirst="Twelve small programmable robots can now be borrowed for two weeks with an "
    "ordinary library card.",
    byline="By Tomasz Lindqvist",
    date="2024-04-02",
    caption="Children test a borrowed robot on the floor of the central library's study room.",
    paragraphs=(
        "The central library has added a dozen palm-sized robots to its lending "
        "collection, and all of them were reserved within two days. Each robot comes in "
        "a padded case with a set of picture cards that explain how to make it follow a "
        "line, avoid obstacles and play simple tunes.",
        "Librarian Agnes Mwangi, who proposed the scheme, said the idea came from parents "
        "who asked for coding clubs the library could not staff. \"We cannot run a class "
        "every evening, but we can lend the tools and the instructions,\" she said. "
        "\"Families learn together at their own kitchen table.\"",
        "The robots were paid for by a grant of 9,000 from a regional education fund. The "
        "library expects some wear and has budgeted for spare wheels and batteries, but "
        "so far every robot has come back in working order.",
        "On Saturday mornings volunteers from the technical college run an open session "
        "in the study room, where children can bring borrowed robots and swap ideas. "
        "Around thirty children attended the first session, some with programs they had "
        "written at home.",
        "If demand stays high the library plans to buy a second set in the autumn and to "
        "offer them through its three branch libraries as well.",
    ),
    comments=(
        Comment("parent_of_two", "2 Apr 2024, 18:20",
                "My daughter wrote her first loop with one of these last week. Brilliant "
                "idea, please buy more."),
        Comment("Sven A.", "2 Apr 2024, 19:02",
                "Good to see the library keeping up with the times instead of just "
                "closing branches."),
        Comment("retired_teacher", "3 Apr 2024, 07:45",
                "The picture cards are very clear. I borrowed one for my grandson and "
                "ended up playing with it myself."),
    ),
)

FESTIVAL = Story(
    slug="river-festival",
    headline="River festival draws record crowds despite steady rain",
    standfirst="Organisers counted more than 60,000 visitors over the weekend, the most in "
    "the festival's twenty-year history.",
    byline="Staff reporter",
    date="2024-07-22",
    paragraphs=(
        "Rain fell for most of Saturday, but it did not keep people away from the "
        "riverside festival, which organisers say drew its largest crowds since it began "
        "in 2004. Stalls selling hot soup and waterproof ponchos reported brisk trade.",
        "The dragon boat races went ahead on schedule, with a team of hospital nurses "
        "winning the final by less than a boat length. Their captain said the crew had "
        "trained three mornings a week since March.",
        "A new floating stage moored near the old customs house hosted twelve bands over "
        "two days. Festival director Paulo Renner said the stage would return next year "
        "and might be joined by a second one further upstream.",
        "Police reported a quiet weekend with no serious incidents. The council's street "
        "cleaning teams started work at midnight on Sunday and had cleared the "
        "embankment by the time the first commuters arrived.",
    ),
)

GARDENS = Story(
    slug="school-gardens",
    headline="Schools turn empty lots into vegetable gardens",
    standfirst="Four primary schools have planted beds of beans, squash and herbs on land "
    "that stood empty for years.",
    byline="By Hana Dvorak",
    date="2024-06-03",
    caption="Pupils water a bed of runner beans at the Millbrook Road garden.",
    paragraphs=(
        "Pupils at four primary schools in the western districts spent the spring "
        "digging, sowing and watering on plots that had been fenced off and overgrown "
        "for most of a decade. The first harvest of radishes and lettuce went to the "
        "school kitchens last week.",
        "The land belongs to the city and was set aside years ago for housing that was "
        "never built. A two-year licence lets the schools use it for free, on condition "
        "that local residents can also rent a few of the beds.",
        "Teachers say the gardens have found their way into almost every subject. "
        "Children measure plant growth in mathematics lessons, keep weather diaries in "
        "science and write about the garden in their language classes.",
        "Head teacher Rosalind Achebe said the project had changed how some pupils "
        "behave at break time. \"Children who used to spend the hour arguing now spend "
        "it checking whether the courgettes have grown,\" she said.",
        "A local builders' merchant donated timber for the raised beds, and a retired "
        "gardener visits each school once a fortnight to advise on what to plant next.",
    ),
)

TRAMS = Story(
    slug="night-tram-timetable",
    headline="Night trams to run every fifteen minutes from next month",
    standfirst="The transport authority will double the frequency of night services on "
    "the two busiest lines.",
    byline="By Maren Hollis",
    date="2024-08-30",
    paragraphs=(
        "Night trams on lines 2 and 5 will run every fifteen minutes instead of every "
        "half hour from the first of October, the transport authority announced on "
        "Friday. The change follows a year-long trial on line 2 that saw passenger "
        "numbers after midnight rise by almost a third.",
        "Hospital and hotel workers had campaigned for more frequent services, saying "
        "the long gaps between trams left them waiting at dark stops for up to twenty "
        "minutes after their shifts ended.",
        "The extra services will cost around 1.2 million a year, which the authority "
        "says will be covered partly by higher evening ridership and partly by savings "
        "from retiring two older trams.",
        "Lines 1, 3 and 4 will keep their current half-hourly night timetable, but the "
        "authority said it would review them again next spring.",
    ),
)

RESERVOIR = Story(
    slug="shuiku-kuorong",
    headline="山区水库完成扩容 今夏城区供水有保障",
    standfirst="历时三年的北山水库扩容工程日前通过验收，新增库容约一千二百万立方米。",
    byline="本报记者 林晓舟",
    date="2024-06-18",
    caption="扩容后的北山水库大坝。",
    paragraphs=(
        "记者从市水务局获悉，北山水库扩容工程日前顺利通过竣工验收。工程历时三年，"
        "将大坝加高六米，并对原有溢洪道进行了改造，新增库容约一千二百万立方米，"
        "可满足城区约四十万居民一个夏季的用水需求。",
        "北山水库建于上世纪七十年代，是城区最主要的水源之一。近年来，随着城区人口增加，"
        "每到夏季用水高峰，供水压力明显加大，部分高层住宅曾多次出现水压不足的情况。",
        "水务局负责人介绍，扩容工程在设计上充分考虑了防洪安全。新建的溢洪道泄洪能力比原来提高了一倍，"
        "大坝内部还安装了一百多个监测点，可以实时掌握坝体的变化情况。",
        "为减少施工对周边环境的影响，工程采取了分段施工的方式，并在库区周边新种植树木两万多株。"
        "附近村民表示，施工期间道路和用水都没有受到太大影响。",
        "据了解，下一步水务部门还将对城区老旧供水管网进行改造，计划用两年时间更换约八十公里管道，"
        "进一步降低管网漏损率。",
    ),
    comments=(
        Comment("老街坊", "2024-06-18 09:32", "终于不用担心夏天停水了，为建设者点赞！"),
        Comment("水务观察", "2024-06-18 10:15", "扩容是好事，但老旧管网的问题更急，希望尽快改造。"),
        Comment("北山村民", "2024-06-18 12:47", "施工期间确实很注意，路修得也比以前好了。"),
        Comment("网友小周", "2024-06-18 20:03", "我们小区七楼夏天经常没水，希望今年能好一些。"),
    ),
)

TEA = Story(
    slug="chuncha-kaicai",
    headline="春茶开采 茶农盼个好价钱",
    standfirst="受气温回升较快影响，今年西岭茶区春茶开采时间比往年提前了一周左右。",
    byline="记者 陈雨",
    date="2024-03-28",
    paragraphs=(
        "清晨六点，西岭茶区的山坡上已经有不少茶农在忙着采摘。今年气温回升较快，"
        "茶树发芽早，春茶开采时间比往年提前了一周左右，第一批明前茶已经陆续上市。",
        "种了二十多年茶的王师傅告诉记者，今年的茶芽长得很整齐，品质比去年好。"
        "他家的十几亩茶园每天能采鲜叶四十多斤，全家老小都上山帮忙。",
        "不过，茶农们也有自己的担心。近几年采茶工越来越难找，工钱每年都在上涨。"
        "不少茶农希望今年茶叶能卖个好价钱，把增加的成本赚回来。",
        "当地茶叶合作社负责人表示，合作社今年和几家电商平台签订了销售协议，"
        "还组织茶农参加了制茶技术培训，希望通过提高品质和拓宽销路，让茶农的收入更有保障。",
    ),
    comments=(
        Comment("喝茶的人", "2024-03-28 08:10", "明前茶是真的好喝，就是价格有点贵。"),
        Comment("西岭人", "2024-03-28 11:26", "家里也在采茶，今年确实比往年早。"),
        Comment("路过", "2024-03-28 15:40", "支持合作社的做法，希望茶农收入越来越高。"),
    ),
)

BUSES = Story(
    slug="yejian-gongjiao",
    headline="城市公交试运行三条夜间线路",
    standfirst="从下周一起，三条夜间公交线路将试运行一个月，末班车延长至凌晨一点。",
    byline="本报记者 赵明远",
    date="2024-09-09",
    paragraphs=(
        "市公交集团昨天宣布，从下周一起试运行三条夜间公交线路，分别连接火车站、"
        "大学城和东部工业园区，末班车时间延长至凌晨一点，发车间隔约为二十分钟。",
        "公交集团相关负责人介绍，开通夜间线路主要是为了方便夜间下班的上班族和晚到的旅客。"
        "此前，集团通过问卷调查收集了三千多份市民意见，其中超过六成的受访者希望延长公交运营时间。",
        "试运行期间，公交集团将根据客流情况对线路和发车间隔进行调整。"
        "如果效果良好，夜间线路将正式纳入公交线网，并有可能增加到五条。",
        "为保障夜间行车安全，所有夜间线路的车辆都配备了车载监控和一键报警装置，"
        "驾驶员在上岗前也接受了专门的夜间驾驶培训。",
    ),
)

ENGLISH = (BRIDGE, LIBRARY, FESTIVAL, GARDENS, TRAMS)
CHINESE = (RESERVOIR, TEA, BUSES)
